package io.regina.api;

import java.util.concurrent.ThreadLocalRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/** UUIDv7 ids for messages, leases and traces, made by the node that submits the command. */
final class UuidV7 {
    private static final AtomicLong LAST = new AtomicLong();

    private UuidV7() {
    }

    /** Time-ordered within this node: the 48-bit time plus a 12-bit counter never go backwards. */
    static String next() {
        long now = System.currentTimeMillis() << 12;
        long stamp = LAST.updateAndGet(last -> Math.max(last + 1, now));
        long msb = ((stamp >>> 12) << 16) | 0x7000L | (stamp & 0x0FFFL);
        long lsb = (ThreadLocalRandom.current().nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb).toString();
    }
}
