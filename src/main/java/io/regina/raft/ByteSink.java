package io.regina.raft;

import io.regina.queue.StateWriter;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte array that writes the primitives of the binary codecs, big-endian. Strings are a
 * presence byte (0 = null, 1 = present) then, when present, an int length and that many UTF-8
 * bytes, so payloads of any size (beyond {@code writeUTF}'s 64 KB) round-trip.
 */
final class ByteSink implements StateWriter {

    private byte[] buf;
    private int size;

    ByteSink() {
        this(256);
    }

    ByteSink(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    private void ensure(int extra) {
        long needed = (long) size + extra;
        if (needed > Integer.MAX_VALUE - 16) {
            throw new CodecException("encoded message exceeds 2 GB");
        }
        if (needed > buf.length) {
            long grown = Math.max(needed, (long) buf.length * 2);
            buf = Arrays.copyOf(buf, (int) Math.min(grown, Integer.MAX_VALUE - 16));
        }
    }

    void writeByte(int value) {
        ensure(1);
        buf[size++] = (byte) value;
    }

    @Override
    public void writeInt(int value) {
        ensure(4);
        buf[size++] = (byte) (value >>> 24);
        buf[size++] = (byte) (value >>> 16);
        buf[size++] = (byte) (value >>> 8);
        buf[size++] = (byte) value;
    }

    @Override
    public void writeLong(long value) {
        writeInt((int) (value >>> 32));
        writeInt((int) value);
    }

    @Override
    public void writeBoolean(boolean value) {
        writeByte(value ? 1 : 0);
    }

    @Override
    public void writeString(String value) {
        if (value == null) {
            writeByte(0);
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        writeByte(1);
        writeInt(bytes.length);
        writeBytes(bytes, 0, bytes.length);
    }

    void writeBytes(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buf, size, length);
        size += length;
    }

    /** Overwrites an int written earlier at {@code position} (for counts known only at the end). */
    void patchInt(int position, int value) {
        buf[position] = (byte) (value >>> 24);
        buf[position + 1] = (byte) (value >>> 16);
        buf[position + 2] = (byte) (value >>> 8);
        buf[position + 3] = (byte) value;
    }

    int size() {
        return size;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }
}
