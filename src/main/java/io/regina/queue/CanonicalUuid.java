package io.regina.queue;

import java.util.UUID;

/**
 * The 128 bits of an id written as a canonical UUID (36 characters, lowercase hex, hyphens at 8, 13, 18 and
 * 23): every message id the broker makes. A stored message keeps those bits in two longs instead of a
 * {@code String} and its array; text that is not canonical stays text, so {@link #format} gives back exactly
 * what was parsed.
 */
final class CanonicalUuid {

    private CanonicalUuid() {
    }

    static boolean is(String text) {
        if (text == null || text.length() != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = text.charAt(i);
            boolean ok = i == 8 || i == 13 || i == 18 || i == 23 ? c == '-'
                    : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** The first 64 bits of a canonical UUID. */
    static long high(String text) {
        return hex(text, 0, 8) << 32 | hex(text, 9, 13) << 16 | hex(text, 14, 18);
    }

    /** The last 64 bits of a canonical UUID. */
    static long low(String text) {
        return hex(text, 19, 23) << 48 | hex(text, 24, 36);
    }

    static String format(long high, long low) {
        return new UUID(high, low).toString();
    }

    /** A well-spread hash of the 128 bits; the same for the text and its two longs. */
    static int hash(long high, long low) {
        long h = high * 0x9E3779B97F4A7C15L ^ low;
        h ^= h >>> 32;
        h *= 0xC2B2AE3D27D4EB4FL;
        return (int) (h ^ h >>> 29);
    }

    private static long hex(String text, int from, int to) {
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            value = value << 4 | (c <= '9' ? c - '0' : c - 'a' + 10);
        }
        return value;
    }
}
