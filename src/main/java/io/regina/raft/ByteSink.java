package io.regina.raft;

import io.regina.queue.StateWriter;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.zip.Checksum;

/**
 * The one writer of every binary format: log entries, client requests, replies and snapshot
 * images. Big-endian ints and longs; a boolean is one byte 0 or 1; a string is a presence byte
 * (0 = null, 1 = present) then, when present, an int length and that many UTF-8 bytes, so strings of
 * any size (beyond {@code writeUTF}'s 64 KB) round-trip. {@link ByteSource} reads it back.
 *
 * <p>An {@linkplain #ByteSink(int) array sink} grows one array and hands it out without a copy
 * when it was sized exactly: the entry path. A {@linkplain #chunked() chunked sink} fills 1 MB
 * chunks and never copies what it holds, so a state image may exceed a byte array's 2 GB.
 */
final class ByteSink implements StateWriter {

    private static final int CHUNK = 1 << 20;
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

    private final boolean chunked;
    /** Chunks already filled (chunked sinks only), each with the bytes used in it. */
    private final List<byte[]> filled;
    private final List<Integer> filledLengths;
    private long filledBytes;
    private byte[] buf;
    private int size;
    /** A thread's scratch sink: its array is reused, so it is never handed out. */
    private boolean scratch;

    ByteSink() {
        this(256);
    }

    /** An array sink; {@code initialCapacity} exact lets {@link #toByteArray()} skip its copy. */
    ByteSink(int initialCapacity) {
        this(false, Math.max(16, initialCapacity));
    }

    private ByteSink(boolean chunked, int capacity) {
        this.chunked = chunked;
        this.filled = chunked ? new ArrayList<>() : List.of();
        this.filledLengths = chunked ? new ArrayList<>() : List.of();
        this.buf = new byte[capacity];
    }

    /** A scratch array sink per thread, for encodings that end in {@link #toByteArray()} (one exact copy). */
    private static final ThreadLocal<ByteSink> SCRATCH = ThreadLocal.withInitial(() -> new ByteSink(4096));
    /** A scratch sink that grew past this is not kept for the thread's next encoding. */
    private static final int SCRATCH_KEPT = 1 << 16;

    /**
     * This thread's scratch sink, empty: an entry, a command or a reply is encoded into one array that
     * stays with the thread, then copied out once at its exact size, instead of a new array that grows by
     * doubling. The caller must take {@link #toByteArray()} before it encodes anything else.
     */
    static ByteSink scratch() {
        ByteSink sink = SCRATCH.get();
        if (sink.buf.length > SCRATCH_KEPT) {
            sink = new ByteSink(4096);
            SCRATCH.set(sink);
        }
        sink.scratch = true;
        sink.size = 0;
        return sink;
    }

    /** A sink of 1 MB chunks, for images of any size. */
    static ByteSink chunked() {
        return new ByteSink(true, CHUNK);
    }

    private void ensure(int extra) {
        if (buf.length - size < extra) {
            grow(extra);
        }
    }

    private void grow(int extra) {
        if (chunked) {
            filled.add(buf);
            filledLengths.add(size);
            filledBytes += size;
            buf = new byte[Math.max(CHUNK, extra)];
            size = 0;
            return;
        }
        long needed = (long) size + extra;
        if (needed > MAX_ARRAY) {
            throw new CodecException("encoded message exceeds 2 GB");
        }
        long grown = Math.max(needed, (long) buf.length * 2);
        buf = Arrays.copyOf(buf, (int) Math.min(grown, MAX_ARRAY));
    }

    void writeByte(int value) {
        ensure(1);
        buf[size++] = (byte) value;
    }

    @Override
    public void writeInt(int value) {
        ensure(4);
        buf[size] = (byte) (value >>> 24);
        buf[size + 1] = (byte) (value >>> 16);
        buf[size + 2] = (byte) (value >>> 8);
        buf[size + 3] = (byte) value;
        size += 4;
    }

    @Override
    public void writeLong(long value) {
        ensure(8);
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
        int length = value.length();
        if (!chunked && isAscii(value, length)) {
            // ASCII (ids, names, most payloads) is its own UTF-8: written char by char, no byte[] in between
            ensure(5 + length);
            buf[size++] = 1;
            writeInt(length);
            for (int i = 0; i < length; i++) {
                buf[size + i] = (byte) value.charAt(i);
            }
            size += length;
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        ensure(5);
        buf[size++] = 1;
        writeInt(bytes.length);
        writeBytes(bytes, 0, bytes.length);
    }

    @Override
    public void writeUtf8(byte[] utf8, int offset, int length) {
        ensure(5);
        buf[size++] = 1;
        writeInt(length);
        writeBytes(utf8, offset, length);
    }

    private static boolean isAscii(String value, int length) {
        for (int i = 0; i < length; i++) {
            if (value.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    void writeBytes(byte[] bytes, int offset, int length) {
        if (chunked) {
            while (length > buf.length - size) {
                int n = buf.length - size;
                System.arraycopy(bytes, offset, buf, size, n);
                size += n;
                offset += n;
                length -= n;
                grow(1);
            }
        } else {
            ensure(length);
        }
        System.arraycopy(bytes, offset, buf, size, length);
        size += length;
    }

    /** Writes the presence byte of a nested value; true when the value's fields follow. */
    boolean writePresence(Object value) {
        writeByte(value == null ? 0 : 1);
        return value != null;
    }

    /** Writes a list's count (-1 for a null list), then each element with {@code element}. */
    <T> void writeList(List<T> list, BiConsumer<ByteSink, T> element) {
        writeInt(list == null ? -1 : list.size());
        if (list != null) {
            for (T value : list) {
                element.accept(this, value);
            }
        }
    }

    void writeStrings(List<String> strings) {
        writeList(strings, ByteSink::writeString);
    }

    long size() {
        return filledBytes + size;
    }

    /** The bytes of an array sink: its own array when it is exactly full, else a trimmed copy. */
    byte[] toByteArray() {
        if (chunked) {
            throw new IllegalStateException("a chunked sink is read with writeTo");
        }
        return size == buf.length && !scratch ? buf : Arrays.copyOf(buf, size);
    }

    /** Writes the content to {@code out}, also feeding {@code checksum} when it is not null. */
    void writeTo(OutputStream out, Checksum checksum) throws IOException {
        for (int i = 0; i < filled.size(); i++) {
            write(out, checksum, filled.get(i), filledLengths.get(i));
        }
        write(out, checksum, buf, size);
    }

    private static void write(OutputStream out, Checksum checksum, byte[] bytes, int length) throws IOException {
        out.write(bytes, 0, length);
        if (checksum != null) {
            checksum.update(bytes, 0, length);
        }
    }
}
