package io.regina.raft;

import io.regina.queue.StateReader;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@link StateReader} over a {@link DataInputStream} bounded to {@code limit} bytes: reading past
 * the limit or meeting an impossible length throws a {@link CodecException} naming {@code what}.
 */
final class DataStateReader implements StateReader {

    private final DataInputStream in;
    private final String what;
    private long remaining;

    DataStateReader(InputStream in, long limit, String what) {
        this.in = in instanceof DataInputStream d ? d : new DataInputStream(in);
        this.remaining = limit;
        this.what = what;
    }

    private void need(long bytes, String field) {
        if (bytes < 0 || bytes > remaining) {
            throw new CodecException(what + " is truncated or corrupt: reading " + field + " needs " + bytes
                    + " byte(s), " + remaining + " left in the state section");
        }
        remaining -= bytes;
    }

    private CodecException failure(IOException e) {
        if (e instanceof EOFException) {
            return new CodecException(what + " is truncated: end of file inside the state section", e);
        }
        return new CodecException(what + " cannot be read: " + e, e);
    }

    @Override
    public int readInt() {
        need(4, "an int");
        try {
            return in.readInt();
        } catch (IOException e) {
            throw failure(e);
        }
    }

    @Override
    public long readLong() {
        need(8, "a long");
        try {
            return in.readLong();
        } catch (IOException e) {
            throw failure(e);
        }
    }

    @Override
    public boolean readBoolean() {
        need(1, "a boolean");
        try {
            int b = in.readUnsignedByte();
            if (b > 1) {
                throw new CodecException(what + " is corrupt: boolean byte " + b);
            }
            return b == 1;
        } catch (IOException e) {
            throw failure(e);
        }
    }

    @Override
    public String readString() {
        need(1, "a string flag");
        try {
            int flag = in.readUnsignedByte();
            if (flag == 0) {
                return null;
            }
            if (flag != 1) {
                throw new CodecException(what + " is corrupt: string presence flag " + flag);
            }
            need(4, "a string length");
            int length = in.readInt();
            need(length, "a string of " + length + " bytes");
            byte[] bytes = new byte[length];
            in.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /** Bytes of the state section not consumed by the reader. */
    long remaining() {
        return remaining;
    }
}
