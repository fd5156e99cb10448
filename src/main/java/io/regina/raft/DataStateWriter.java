package io.regina.raft;

import io.regina.queue.StateWriter;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@link StateWriter} over a {@link DataOutputStream}; strings use the same layout as the entry
 * codec (presence byte, int length, UTF-8 bytes), so they may exceed 64 KB.
 */
final class DataStateWriter implements StateWriter {

    private final DataOutputStream out;

    DataStateWriter(OutputStream out) {
        this.out = out instanceof DataOutputStream d ? d : new DataOutputStream(out);
    }

    @Override
    public void writeInt(int value) {
        try {
            out.writeInt(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void writeLong(long value) {
        try {
            out.writeLong(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void writeBoolean(boolean value) {
        try {
            out.writeBoolean(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void writeString(String value) {
        try {
            if (value == null) {
                out.writeByte(0);
                return;
            }
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            out.writeByte(1);
            out.writeInt(bytes.length);
            out.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
