package io.regina.config;

/**
 * How G1 gives heap back. G1 returns heap to the OS only when a concurrent cycle ends (its remark shrinks the
 * heap to {@code MaxHeapFreeRatio}% free above what is used), and on a broker with little to do only its
 * periodic collection starts one, once the JVM has not collected for {@code G1PeriodicGCInterval}. Left at one
 * setting that goes wrong both ways: a broker at 200 jobs/s collects every 10-15 s, so G1 ran a cycle there
 * and shrank its heap from 224 to 72 MB, after which young collections came every 1.3-2.4 s, not 10-15; an
 * idle broker ran a cycle every 10 s for ever, a third of its CPU, returning nothing after the first few.
 *
 * <p>So the broker says whether it is busy or idle: at each look ({@link #LOOK_MS}) it is idle if no
 * collection but periodic ones ran since the last look and the heap filled by less than
 * {@link #IDLE_FILL_BYTES}. Busy, a cycle after {@link #BUSY_INTERVAL_MS} without a collection keeps
 * {@link #BUSY_MAX_FREE}% free (the JVM's own default: a light load keeps an eden that collects every few
 * seconds); idle, a cycle every {@link #IDLE_INTERVAL_MS} keeps {@link #IDLE_MAX_FREE}%. In either, once
 * {@link #FRUITLESS_LIMIT} periodic collections in a row left the committed heap where it was, they stop
 * until the heap has grown or the broker changed between busy and idle. (G1 reads a changed interval at its
 * next check, which the interval before scheduled: an idle spell's first cycle comes within the busy
 * interval.) Not thread-safe: the caller serialises the GC notifications and the looks.
 */
final class PeriodicCollections {

    static final long LOOK_MS = 5_000;
    static final long BUSY_INTERVAL_MS = 10_000;
    static final long IDLE_INTERVAL_MS = 5_000;
    static final int BUSY_MAX_FREE = 70;
    static final int IDLE_MAX_FREE = 30;

    /** Filling less than this between two looks (0.8 MB/s) is idle: a broker at 200 jobs/s fills ~8 MB/s. */
    static final long IDLE_FILL_BYTES = 4L << 20;

    /**
     * One shrink may take three periodic collections (a concurrent start whose remark shrinks, then a prepare
     * mixed and a mixed one that free old regions) and the remark of a fourth.
     */
    static final int FRUITLESS_LIMIT = 4;

    /** A move of the committed heap smaller than this (two of G1's 4 MB regions) is not a move. */
    static final long SLACK_BYTES = 8L << 20;

    /** The two flags to set: {@code G1PeriodicGCInterval} (0: off) and {@code MaxHeapFreeRatio}. */
    record Flags(long intervalMs, int maxHeapFreeRatio) { }

    private final long busyIntervalMs;
    private final long idleIntervalMs;
    private boolean idle;
    private boolean done;
    private long reference = -1;
    private int fruitless;
    private int collectionsSinceLook;
    private long usedAtLook = -1;

    PeriodicCollections(long busyIntervalMs, long idleIntervalMs) {
        this.busyIntervalMs = busyIntervalMs;
        this.idleIntervalMs = idleIntervalMs;
    }

    /** What a broker starts with: busy. */
    Flags initial() {
        return flags();
    }

    /** A collection that G1's periodic collection did not start: the broker allocates. */
    void collected() {
        collectionsSinceLook++;
    }

    /** After a collection G1's periodic collection started, with the committed heap now: the flags to set, or null. */
    Flags periodicCollected(long committedBytes) {
        if (done) {
            return null;
        }
        if (reference < 0 || Math.abs(committedBytes - reference) > SLACK_BYTES) {
            countAfresh(committedBytes);
        }
        if (++fruitless < FRUITLESS_LIMIT) {
            return null;
        }
        done = true;
        return flags();
    }

    /** Every {@link #LOOK_MS}, with the heap's used and committed bytes now: the flags to set, or null. */
    Flags look(long usedBytes, long committedBytes) {
        boolean idleNow = collectionsSinceLook == 0 && usedAtLook >= 0 && usedBytes - usedAtLook < IDLE_FILL_BYTES;
        collectionsSinceLook = 0;
        usedAtLook = usedBytes;
        if (idleNow != idle) {
            idle = idleNow;
            done = false;
            countAfresh(committedBytes);
            return flags();
        }
        if (done && committedBytes > reference + SLACK_BYTES) {
            done = false;
            countAfresh(committedBytes);
            return flags();
        }
        return null;
    }

    /** Fruitless periodic collections are counted from this committed heap on. */
    private void countAfresh(long committedBytes) {
        reference = committedBytes;
        fruitless = 0;
    }

    private Flags flags() {
        long interval = done ? 0 : idle ? idleIntervalMs : busyIntervalMs;
        return new Flags(interval, idle ? IDLE_MAX_FREE : BUSY_MAX_FREE);
    }
}
