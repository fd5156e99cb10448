package io.regina.queue;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Ids that apply derives instead of generating: the same inputs give the same id on every replica.
 */
public final class Ids {

    private Ids() {
    }

    /** A stable name-based id, e.g. for a partition from its queue and name. */
    public static String named(String... parts) {
        return UUID.nameUUIDFromBytes(String.join("\u0000", parts).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * A UUIDv7-shaped id whose time bits are {@code epochMillis} and whose other bits come from
     * {@code key}, so ids sort by time and stay deterministic.
     */
    public static String timeOrdered(long epochMillis, String key) {
        UUID hash = UUID.nameUUIDFromBytes(key.getBytes(StandardCharsets.UTF_8));
        long msb = (epochMillis << 16) | 0x7000L | (hash.getMostSignificantBits() & 0x0FFFL);
        long lsb = (hash.getLeastSignificantBits() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb).toString();
    }

    /**
     * {@code id} itself when {@code transactionId} is equal to it, as it is for every push that names no
     * transactionId: a stored message then holds one string for both, not two copies read from the log.
     */
    public static String sharedWith(String id, String transactionId) {
        return id != null && id.equals(transactionId) ? id : transactionId;
    }
}
