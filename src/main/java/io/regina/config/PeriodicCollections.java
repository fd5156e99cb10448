package io.regina.config;

/**
 * When G1's periodic collection is on. G1 gives heap back to the OS only when a concurrent cycle ends, and on
 * an idle broker only its periodic collection starts one. Left to itself G1 calls a JVM idle when it has not
 * collected for the interval: a broker at 200 jobs/s collects every 10-15 s, so G1 ran a cycle there every 10 s,
 * whose remark shrank the heap to a third, after which young collections came four times as often; and on a
 * truly idle broker it ran one every 10 s for ever, a third of its CPU, giving back nothing after the first few.
 *
 * <p>So the broker says when it is idle: at each look ({@link #LOOK_MS}) it is idle if no collection but
 * periodic ones ran since the last look and the heap filled by less than {@link #IDLE_FILL_BYTES}. While idle
 * the periodic collection is on, until {@link #FRUITLESS_LIMIT} of them in a row left the committed heap
 * where it was: what the idle spell could give back is back. While busy it is off. Once done it comes on
 * again only after the heap grew. Not thread-safe: the caller serialises the GC notifications and the looks.
 */
final class PeriodicCollections {

    static final long LOOK_MS = 5_000;

    /** Filling less than this between two looks (0.8 MB/s) is idle: a broker at 200 jobs/s fills ~8 MB/s. */
    static final long IDLE_FILL_BYTES = 4L << 20;

    /**
     * One shrink may take three periodic collections (a concurrent start whose remark shrinks, then a prepare
     * mixed and a mixed one that free old regions) and the remark of a fourth.
     */
    static final int FRUITLESS_LIMIT = 4;

    /** A move of the committed heap smaller than this (two of G1's 4 MB regions) is not a move. */
    static final long SLACK_BYTES = 8L << 20;

    private final long intervalMs;
    private boolean on;
    private boolean done;
    private long doneAtCommitted;
    private long reference;
    private int fruitless;
    private int collectionsSinceLook;
    private long usedAtLook = -1;

    /** {@code intervalMs}: G1's interval while on; the broker is already known idle, so about a look. */
    PeriodicCollections(long intervalMs) {
        this.intervalMs = intervalMs;
    }

    /** A collection that G1's periodic collection did not start: the broker allocates. */
    void collected() {
        collectionsSinceLook++;
    }

    /** After a collection G1's periodic collection started, with the committed heap now: the interval to set, or -1. */
    long periodicCollected(long committedBytes) {
        if (!on) {
            return -1;
        }
        if (Math.abs(committedBytes - reference) > SLACK_BYTES) {
            reference = committedBytes;
            fruitless = 0;
        }
        if (++fruitless < FRUITLESS_LIMIT) {
            return -1;
        }
        on = false;
        done = true;
        doneAtCommitted = committedBytes;
        return 0;
    }

    /** Every {@link #LOOK_MS}, with the heap's used and committed bytes now: the interval to set, or -1. */
    long look(long usedBytes, long committedBytes) {
        boolean idle = collectionsSinceLook == 0 && usedAtLook >= 0 && usedBytes - usedAtLook < IDLE_FILL_BYTES;
        collectionsSinceLook = 0;
        usedAtLook = usedBytes;
        if (done && committedBytes > doneAtCommitted + SLACK_BYTES) {
            done = false;
        }
        if (idle && !on && !done) {
            on = true;
            reference = committedBytes;
            fruitless = 0;
            return intervalMs;
        }
        if (!idle && on) {
            on = false;
            return 0;
        }
        return -1;
    }
}
