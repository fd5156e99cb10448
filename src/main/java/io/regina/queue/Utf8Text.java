package io.regina.queue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Text held as its UTF-8 bytes: a pushed payload from the request that carried it, through the log, to the
 * slab that keeps it, without being decoded into a {@code String} and encoded back on the way. The bytes
 * are owned by this value and never changed.
 */
public final class Utf8Text {
    private final byte[] utf8;

    private Utf8Text(byte[] utf8) {
        this.utf8 = utf8;
    }

    /** The UTF-8 of {@code text}; null for null. */
    public static Utf8Text of(String text) {
        return text == null ? null : new Utf8Text(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Takes {@code utf8}, valid UTF-8 that the caller no longer changes. */
    public static Utf8Text owning(byte[] utf8) {
        return new Utf8Text(utf8);
    }

    /** The bytes themselves, not a copy: read them, never write them. */
    public byte[] bytes() {
        return utf8;
    }

    public int length() {
        return utf8.length;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Utf8Text text && Arrays.equals(utf8, text.utf8);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(utf8);
    }

    /** The text itself. */
    @Override
    public String toString() {
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
