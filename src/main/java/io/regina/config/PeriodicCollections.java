package io.regina.config;

/**
 * When G1's periodic collection is on. G1 gives heap back to the OS only at the end of a concurrent cycle, and
 * on a broker with little to do (no young collection for the interval, {@link #INTERVAL_MS} in a broker) only its periodic collection
 * starts one. After a busy spell a few of them return what the spell grew; after that each cycle returns
 * nothing and still costs ~50 ms of CPU and two pauses, every interval, for as long as the broker stays idle
 * or nearly (an idle broker spent a quarter of its CPU on them). So the periodic collection turns itself off
 * once {@link #FRUITLESS_LIMIT} of them in a row left the committed heap where it was, and on again when load
 * grows the heap. Not thread-safe: one caller, the JVM's GC notifications.
 */
final class PeriodicCollections {

    static final long INTERVAL_MS = 10_000;

    /**
     * One shrink may take three periodic collections (a concurrent start whose remark shrinks, then a prepare
     * mixed and a mixed one that free old regions) and the remark of a fourth.
     */
    static final int FRUITLESS_LIMIT = 4;

    /** A move of the committed heap smaller than this (two of G1's 4 MB regions) is not a move. */
    static final long SLACK_BYTES = 8L << 20;

    private final long intervalMs;
    private boolean on = true;
    private long reference = -1;
    private int fruitless;

    /** {@code intervalMs}: the interval while on ({@link #INTERVAL_MS} in a broker). */
    PeriodicCollections(long intervalMs) {
        this.intervalMs = intervalMs;
    }

    /**
     * After a collection, given whether G1's periodic collection started it and the committed heap now: the
     * interval to set (ms; 0 turns it off), or -1 to leave it as it is.
     */
    long afterCollection(boolean periodic, long committedBytes) {
        if (reference < 0 || Math.abs(committedBytes - reference) > SLACK_BYTES) {
            boolean grew = reference >= 0 && committedBytes > reference;
            reference = committedBytes;
            fruitless = 0;
            if (grew && !on) {
                on = true;
                return intervalMs;
            }
        }
        if (periodic && on && ++fruitless >= FRUITLESS_LIMIT) {
            on = false;
            return 0;
        }
        return -1;
    }
}
