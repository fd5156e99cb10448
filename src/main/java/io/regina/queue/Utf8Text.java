package io.regina.queue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Text held as its UTF-8 bytes: a pushed payload from the request that carried it, through the log, to the
 * slab that keeps it, without being decoded into a {@code String} and encoded back on the way. It may be a
 * view of a larger array (the request's body, the log's request), whose bytes in its range must not change
 * while it is in use.
 */
public final class Utf8Text {
    private final byte[] array;
    private final int offset;
    private final int length;

    private Utf8Text(byte[] array, int offset, int length) {
        this.array = array;
        this.offset = offset;
        this.length = length;
    }

    /** The UTF-8 of {@code text}; null for null. */
    public static Utf8Text of(String text) {
        return text == null ? null : owning(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Takes {@code utf8}, valid UTF-8 that nobody changes any more. */
    public static Utf8Text owning(byte[] utf8) {
        return new Utf8Text(utf8, 0, utf8.length);
    }

    /** The valid UTF-8 in {@code array} from {@code offset}, {@code length} bytes, which nobody changes any more. */
    public static Utf8Text view(byte[] array, int offset, int length) {
        if (offset < 0 || length < 0 || offset > array.length - length) {
            throw new IndexOutOfBoundsException("bytes " + offset + "+" + length + " of an array of " + array.length);
        }
        return new Utf8Text(array, offset, length);
    }

    /** The array the text is in, from {@link #offset()}: read it, never write it. */
    public byte[] array() {
        return array;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Utf8Text text
                && Arrays.equals(array, offset, offset + length, text.array, text.offset, text.offset + text.length);
    }

    @Override
    public int hashCode() {
        int hash = 1;
        for (int i = offset; i < offset + length; i++) {
            hash = 31 * hash + array[i];
        }
        return hash;
    }

    /** The text itself. */
    @Override
    public String toString() {
        return new String(array, offset, length, StandardCharsets.UTF_8);
    }
}
