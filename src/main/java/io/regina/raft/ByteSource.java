package io.regina.raft;

import io.regina.queue.StateReader;
import io.regina.queue.Utf8Text;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * The one reader of every binary format: reads what a {@link ByteSink} wrote, from a buffer in
 * memory (log entries, requests, replies) or from a channel through a window it refills (snapshot
 * images, which may exceed 2 GB). Every read is bounds-checked: running past the end or meeting an
 * impossible length throws a {@link CodecException} naming {@code what} was read and the offset.
 */
final class ByteSource implements StateReader {

    private static final int WINDOW = 1 << 16;
    /** Strings up to this size are checked for ASCII in a per-thread scratch array, not a new one. */
    private static final int SCRATCH_BYTES = 1 << 16;
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[SCRATCH_BYTES]);

    private final String what;
    /** The channel the window is refilled from, or null when the whole input is in {@link #in}. */
    private final ReadableByteChannel more;
    private ByteBuffer in;
    /** Bytes still in the channel that belong to the input (beyond the window). */
    private long unread;
    /** Bytes consumed before the window's start. */
    private long consumed;
    private CharsetDecoder utf8;

    ByteSource(ByteBuffer in, String what) {
        this.in = in.slice();
        this.what = what;
        this.more = null;
    }

    /** Reads the next {@code length} bytes of {@code channel}. */
    ByteSource(ReadableByteChannel channel, long length, String what) {
        this.in = ByteBuffer.allocate(WINDOW).limit(0);
        this.what = what;
        this.more = channel;
        this.unread = length;
    }

    private void need(int bytes, String field) {
        if (in.remaining() < bytes) {
            refill(bytes, field);
        }
    }

    /** Makes {@code bytes} readable in the window, or throws: the input ends before them. */
    private void refill(int bytes, String field) {
        if (bytes < 0 || more == null || bytes > in.capacity() || bytes - in.remaining() > unread) {
            throw new CodecException(what + " is truncated: reading " + field + " needs " + bytes
                    + " byte(s) at offset " + position() + ", " + remaining() + " left");
        }
        consumed += in.position();
        in.compact();
        try {
            while (in.position() < bytes) {
                int room = (int) Math.min(in.remaining(), unread);
                ByteBuffer target = in.slice().limit(room);
                int n = more.read(target);
                if (n < 0) {
                    throw new CodecException(what + " is truncated: end of file at offset " + (consumed + in.position())
                            + " with " + unread + " byte(s) still expected");
                }
                in.position(in.position() + n);
                unread -= n;
            }
        } catch (IOException e) {
            throw new CodecException(what + " cannot be read: " + e, e);
        }
        in.flip();
    }

    int readByte() {
        need(1, "a byte");
        return in.get() & 0xFF;
    }

    @Override
    public int readInt() {
        need(4, "an int");
        return in.getInt();
    }

    @Override
    public long readLong() {
        need(8, "a long");
        return in.getLong();
    }

    @Override
    public boolean readBoolean() {
        int b = readByte();
        if (b > 1) {
            throw new CodecException(what + " is corrupt: boolean byte " + b + " at offset " + (position() - 1));
        }
        return b == 1;
    }

    /**
     * The bytes {@link #readString} would decode, checked to be UTF-8 as it checks them: a view of the input
     * when it is a heap array held whole (a request on its leader), else a copy.
     */
    @Override
    public Utf8Text readUtf8Text() {
        int length = readStringLength();
        if (length < 0) {
            return null;
        }
        Utf8Text text;
        if (more == null && in.hasArray()) {
            need(length, "a string of " + length + " bytes");
            text = Utf8Text.view(in.array(), in.arrayOffset() + in.position(), length);
            in.position(in.position() + length);
        } else if (length <= in.capacity()) {
            need(length, "a string of " + length + " bytes");
            byte[] bytes = new byte[length];
            in.get(bytes);
            text = Utf8Text.owning(bytes);
        } else {
            text = Utf8Text.owning(readLarge(length));
        }
        if (!isAscii(text.array(), text.offset(), length)) {
            decodeStrictly(ByteBuffer.wrap(text.array(), text.offset(), length));
        }
        return text;
    }

    @Override
    public String readString() {
        int length = readStringLength();
        if (length < 0) {
            return null;
        }
        ByteBuffer bytes;
        if (length <= in.capacity()) {
            need(length, "a string of " + length + " bytes");
            bytes = in.slice().limit(length);
            in.position(in.position() + length);
        } else {
            bytes = ByteBuffer.wrap(readLarge(length));
        }
        String ascii = ascii(bytes);
        if (ascii != null) {
            return ascii;
        }
        return decodeStrictly(bytes);
    }

    /** A string's presence flag and length: -1 for null. */
    private int readStringLength() {
        int flag = readByte();
        if (flag == 0) {
            return -1;
        }
        if (flag != 1) {
            throw new CodecException(what + " is corrupt: string presence flag " + flag + " at offset "
                    + (position() - 1));
        }
        int length = readInt();
        if (length < 0 || length > remaining()) {
            throw new CodecException(what + " is truncated: reading a string of " + length + " bytes at offset "
                    + position() + ", " + remaining() + " left");
        }
        return length;
    }

    private static boolean isAscii(byte[] bytes, int offset, int length) {
        for (int i = offset, to = offset + length; i < to; i++) {
            if (bytes[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** The string of these UTF-8 bytes; a {@link CodecException} if they are not UTF-8. */
    private String decodeStrictly(ByteBuffer bytes) {
        if (utf8 == null) {
            utf8 = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);
        }
        try {
            return utf8.decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw new CodecException(what + " is corrupt: invalid UTF-8 in a string", e);
        }
    }

    /**
     * The string of {@code bytes} when they are all ASCII (ids, names and most payloads), without the
     * strict decoder's buffers; null otherwise, leaving {@code bytes} unread. ASCII is valid UTF-8 and
     * decodes the same as Latin-1. Ratis hands out read-only buffers, which show no array: their bytes
     * are copied once into this thread's scratch array.
     */
    private static String ascii(ByteBuffer bytes) {
        byte[] array;
        int from;
        int length = bytes.remaining();
        if (bytes.hasArray()) {
            array = bytes.array();
            from = bytes.arrayOffset() + bytes.position();
        } else {
            array = length <= SCRATCH_BYTES ? SCRATCH.get() : new byte[length];
            bytes.get(bytes.position(), array, 0, length);
            from = 0;
        }
        for (int i = from, to = from + length; i < to; i++) {
            if (array[i] < 0) {
                return null;
            }
        }
        return new String(array, from, length, StandardCharsets.ISO_8859_1);
    }

    /** A string longer than the window, read through it piece by piece. */
    private byte[] readLarge(int length) {
        byte[] bytes = new byte[length];
        int done = 0;
        while (done < length) {
            need(Math.min(length - done, in.capacity()), "a string of " + length + " bytes");
            int n = Math.min(length - done, in.remaining());
            in.get(bytes, done, n);
            done += n;
        }
        return bytes;
    }

    /** Reads a count of elements that each take at least {@code minBytesEach}; refuses impossible counts. */
    int readCount(String field, int minBytesEach) {
        int count = readInt();
        if (count < 0 || (long) count * Math.max(1, minBytesEach) > remaining()) {
            throw new CodecException(what + " is corrupt: " + field + " count " + count + " with "
                    + remaining() + " byte(s) left");
        }
        return count;
    }

    /** Reads a presence byte written by {@link ByteSink#writePresence}; true when the value's fields follow. */
    boolean readPresence(String field) {
        int flag = readByte();
        if (flag > 1) {
            throw new CodecException(what + " is corrupt: presence flag " + flag + " for " + field
                    + " at offset " + (position() - 1));
        }
        return flag == 1;
    }

    /**
     * Reads what {@link ByteSink#writeList} wrote: null, or an unmodifiable list (that may hold
     * nulls, as {@code List.copyOf} would not) of the elements {@code element} reads.
     */
    <T> List<T> readList(String field, Function<ByteSource, T> element) {
        long at = position();
        int count = readInt();
        if (count == -1) {
            return null;
        }
        if (count < 0 || count > remaining()) {
            throw new CodecException(what + " is corrupt: " + field + " count " + count + " at offset "
                    + at + " with " + remaining() + " byte(s) left");
        }
        List<T> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            list.add(element.apply(this));
        }
        return Collections.unmodifiableList(list);
    }

    List<String> readStrings() {
        return readList("strings", ByteSource::readString);
    }

    long position() {
        return consumed + in.position();
    }

    long remaining() {
        return in.remaining() + unread;
    }

    String what() {
        return what;
    }
}
