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
 * {@link #BUSY_MAX_FREE}% free (see there), and one after {@link #SOON_INTERVAL_MS} once the heap is well over
 * what that keeps ({@link #oversized}); idle, a cycle every {@link #IDLE_INTERVAL_MS} keeps
 * {@link #IDLE_ROOM_BYTES} free above what the last collection left, at least {@link #IDLE_MAX_FREE}% and at
 * most {@link #IDLE_MAX_FREE_CEILING}% (see {@link #idleMaxFree}). In either, once {@link #FRUITLESS_LIMIT}
 * periodic collections in a row left the committed heap where it was, they stop until the heap has grown; a
 * change between busy and idle counts them afresh only when it gives them something to return (see
 * {@link #mayReturnMore}). (G1 reads a changed interval at its next check, which the interval before scheduled:
 * an idle spell's first cycle comes within the busy interval.) Not thread-safe: the caller serialises the GC notifications and the looks.
 */
final class PeriodicCollections {

    static final long LOOK_MS = 5_000;
    static final long BUSY_INTERVAL_MS = 10_000;
    /**
     * The gap without a collection after which a busy broker whose heap is oversized gets a cycle. A burst grows
     * the heap, and a steady load after it collects young every second or two and marks nothing: its remarks, the
     * only shrinks, never came, and the benchmark's paced lanes ran on the 139 MB the pool lanes left where their
     * ratio keeps ~104 (docs/benchmarks.md, session 37). A second without a collection is a load of at most an
     * eden a second (~60 MB/s, 1,500 jobs/s); a burst collects several times a second and is left alone, so the
     * heap is not shrunk under a load that would grow it again at once.
     */
    static final long SOON_INTERVAL_MS = 1_000;
    static final long IDLE_INTERVAL_MS = 5_000;
    /**
     * The least free share a busy broker's remark keeps: as much free as used, an eden about the size of what
     * lives. At 1,000 jobs/s (~40 MB a second) that is a young collection every ~0.7 s of 3-6 ms, under the 1% of
     * the time past which G1 grows the heap itself, so a heavier load still gets its room. The JVM's default,
     * {@link #BUSY_MAX_FREE_CEILING}%, kept 136-160 MB through the benchmark's paced lanes (docs/benchmarks.md,
     * session 33). It is a floor: see {@link #busyMaxFree}.
     */
    static final int BUSY_MAX_FREE = 50;
    static final int BUSY_MAX_FREE_CEILING = 70;
    static final int IDLE_MAX_FREE = 30;

    /**
     * The free heap an idle broker keeps above what its last collection left, within {@link #IDLE_MAX_FREE}% and
     * {@link #IDLE_MAX_FREE_CEILING}%: room for an eden that the next load fills about once a second (1,000
     * jobs/s allocate ~40 MB a second). At 30% alone an idle broker's heap came down to 64-68 MB; the next 500 or
     * 1,000 jobs/s then collected 3-4 times a second, and G1, which grows a heap whose young pauses take over 1% of
     * the time (its threshold below half the maximum heap), grew it 2.5-fold to 224 MB in one step: 370-380 MB of
     * RSS after those lanes. At 60% it kept 112 MB and did not grow in them (docs/benchmarks.md, session 27).
     */
    static final long IDLE_ROOM_BYTES = 64L << 20;
    /**
     * The idle ratio's ceiling. G1's remark counts whole regions and the young regions filled since the last
     * collection as used, more than that collection left: 60% over the 33 MB a collection left kept 112 MB, and
     * the ratio that would keep exactly 64 MB above 33 (66%) kept 148 MB, no less than a busy heap.
     */
    static final int IDLE_MAX_FREE_CEILING = 60;

    /** Filling less than this between two looks (0.8 MB/s) is idle: a broker at 200 jobs/s fills ~8 MB/s. */
    static final long IDLE_FILL_BYTES = 4L << 20;

    /**
     * One shrink may take three periodic collections (a concurrent start whose remark shrinks, then a prepare
     * mixed and a mixed one that free old regions) and the remark of a fourth.
     */
    static final int FRUITLESS_LIMIT = 4;

    /** A move of the committed heap smaller than this (two of G1's 4 MB regions) is not a move. */
    static final long SLACK_BYTES = 8L << 20;

    /** The least excess over what a busy remark keeps that asks for a cycle soon: four of G1's 4 MB regions. */
    static final long OVERSIZE_BYTES = 16L << 20;

    /**
     * What G1's remark counts as used beyond the bytes a collection left: it sizes the heap by the regions in use,
     * so the survivors' and the old regions' unfilled ends count whole. 7-17 MB in the benchmark's lanes (its
     * {@code gc+ergo+heap} log: occupancy 54.5 MB where 39.5 lived), which made a remark at the ratio meant to keep
     * 104 MB keep 151 (docs/benchmarks.md, session 37).
     */
    static final long REMARK_WASTE_BYTES = 16L << 20;

    /**
     * The free share that keeps a busy heap of {@code usedBytes} (and {@link #REMARK_WASTE_BYTES}, as G1's remark
     * counts) at {@code floorBytes} or more, within
     * {@link #BUSY_MAX_FREE}% and {@link #BUSY_MAX_FREE_CEILING}%. The floor is a little over a quarter of the
     * JVM's initial heap because G1 grows a heap below that quarter by half its distance to the initial heap
     * at once: a remark at 50% took the benchmark's busy heap to 88 MB, under the 96 MB quarter of a 384 MB
     * initial heap, and the next burst of empty jobs grew it to 236 MB in one step where one over the quarter
     * grows by a fraction of itself.
     */
    static int busyMaxFree(long usedBytes, long floorBytes) {
        long used = Math.max(0, usedBytes) + REMARK_WASTE_BYTES;
        long percent = used >= floorBytes ? 0 : (100 * (floorBytes - used) + floorBytes - 1) / floorBytes;
        return (int) Math.max(BUSY_MAX_FREE, Math.min(BUSY_MAX_FREE_CEILING, percent));
    }

    /** The two flags to set: {@code G1PeriodicGCInterval} (0: off) and {@code MaxHeapFreeRatio}. */
    record Flags(long intervalMs, int maxHeapFreeRatio) { }

    private final long busyIntervalMs;
    private final long idleIntervalMs;
    private final long busyFloorBytes;
    private boolean idle;
    private boolean done;
    private long reference = -1;
    private int fruitless;
    /** What the last periodic collection left used; -1 before the first. */
    private long usedAtLastCycle = -1;
    private int collectionsSinceLook;
    private long usedAtLook = -1;
    private long usedAfterCollection = -1;
    private long committedAtLook = -1;
    /** The committed heap when a cycle asked for soon started, until the next look judges it; else -1. */
    private long soonCycleFrom = -1;
    /** A heap a cycle asked for soon did not shrink: none is asked for soon again until it grows past it. */
    private long soonFruitlessAt = -1;
    /** Whether the last flags asked for a cycle after {@link #SOON_INTERVAL_MS}. */
    private boolean soonAsked;
    private Flags last;

    /** {@code busyFloorBytes}: the heap a busy broker's remark should not shrink below ({@link #busyMaxFree}). */
    PeriodicCollections(long busyIntervalMs, long idleIntervalMs, long busyFloorBytes) {
        this.busyIntervalMs = busyIntervalMs;
        this.idleIntervalMs = idleIntervalMs;
        this.busyFloorBytes = busyFloorBytes;
        this.last = flags();
    }

    /** What a broker starts with: busy. */
    Flags initial() {
        return flags();
    }

    /**
     * A collection that G1's periodic collection did not start, and the heap it left used: the broker allocates.
     * The flags to set, or null: a busy broker's ratio follows what its collections leave.
     */
    Flags collected(long usedAfterBytes) {
        collectionsSinceLook++;
        usedAfterCollection = usedAfterBytes;
        if (idle) {
            return null;
        }
        return changedFlags();
    }

    /**
     * After a collection G1's periodic collection started, with the committed heap now and what the collection left
     * used: the flags to set, or null. An idle broker's ratio follows what is used, so that the next cycle's remark
     * keeps the same room above it rather than shrinking the heap by another 30% of what is free.
     */
    Flags periodicCollected(long committedBytes, long usedAfterBytes) {
        usedAfterCollection = usedAfterBytes;
        usedAtLastCycle = usedAfterBytes;
        if (done) {
            return null;
        }
        if (reference < 0 || Math.abs(committedBytes - reference) > SLACK_BYTES) {
            countAfresh(committedBytes);
        }
        if (soonAsked) {
            // one cycle a request: G1's periodic check would otherwise collect every second until the next look
            soonCycleFrom = committedBytes;
        }
        if (++fruitless >= FRUITLESS_LIMIT) {
            done = true;
        }
        return changedFlags();
    }

    /**
     * The idle ratio: {@link #IDLE_ROOM_BYTES} free above {@code usedBytes} (G1's remark shrinks the heap to
     * used / (1 - ratio)), at least {@link #IDLE_MAX_FREE}% of it, at most {@link #IDLE_MAX_FREE_CEILING}%.
     */
    static int idleMaxFree(long usedBytes) {
        long percent = (100 * IDLE_ROOM_BYTES + usedBytes + IDLE_ROOM_BYTES - 1) / (usedBytes + IDLE_ROOM_BYTES);
        return (int) Math.max(IDLE_MAX_FREE, Math.min(IDLE_MAX_FREE_CEILING, percent));
    }

    /** Every {@link #LOOK_MS}, with the heap's used and committed bytes now: the flags to set, or null. */
    Flags look(long usedBytes, long committedBytes) {
        boolean idleNow = collectionsSinceLook == 0 && usedAtLook >= 0 && usedBytes - usedAtLook < IDLE_FILL_BYTES;
        collectionsSinceLook = 0;
        usedAtLook = usedBytes;
        committedAtLook = committedBytes;
        if (soonCycleFrom >= 0) {
            if (committedBytes >= soonCycleFrom - SLACK_BYTES) {
                soonFruitlessAt = committedBytes;
            }
            soonCycleFrom = -1;
        }
        if (idleNow != idle) {
            idle = idleNow;
            if (mayReturnMore(committedBytes)) {
                done = false;
                countAfresh(committedBytes);
            }
            return changedFlags();
        }
        if (done && committedBytes > reference + SLACK_BYTES) {
            done = false;
            countAfresh(committedBytes);
            return flags();
        }
        return idle ? null : changedFlags();
    }

    /**
     * Whether a busy heap of {@code committedBytes} is {@link #OVERSIZE_BYTES} or more over what a remark at
     * {@code maxFreeRatio}% keeps above {@code usedBytes} (and {@link #REMARK_WASTE_BYTES}).
     */
    static boolean oversized(long committedBytes, long usedBytes, int maxFreeRatio) {
        return overBy(committedBytes, usedBytes, maxFreeRatio, OVERSIZE_BYTES);
    }

    /** Whether a remark at {@code maxFreeRatio}% would shrink a heap of {@code committedBytes} by {@code bytes}. */
    private static boolean overBy(long committedBytes, long usedBytes, int maxFreeRatio, long bytes) {
        if (committedBytes < 0 || usedBytes < 0) {
            return false;
        }
        long keeps = (usedBytes + REMARK_WASTE_BYTES) * 100 / (100 - maxFreeRatio);
        return committedBytes - keeps >= bytes;
    }

    /**
     * Whether a change between busy and idle gives the cycles something new to return, so that their fruitless
     * ones are counted afresh: the heap, or what the collections leave, grew by more than {@link #SLACK_BYTES}
     * since the count began or the last cycle (a load promoted what a cycle's mixed collections can free), or a
     * remark at the new ratio would shrink the heap by {@link #SLACK_BYTES} (at four regions the full benchmark ran
     * its paced lanes on the 120 MB the pool lanes left, against 104: RSS 295-297 MiB against 275-283). Otherwise
     * the count goes on: a remark would leave the heap where it is, and each costs a pause of 14-27 ms, most of it
     * unloading classes (docs/benchmarks.md, session 42). Counted afresh at every change, a broker whose load comes and goes (the benchmark alternates
     * systems every 20 s) ran its cycles for ever, one in most of its paced runs.
     */
    private boolean mayReturnMore(long committedBytes) {
        long used = used();
        return committedBytes > reference + SLACK_BYTES || used > usedAtLastCycle + SLACK_BYTES
                || overBy(committedBytes, usedAfterCollection, ratio(used), SLACK_BYTES);
    }

    /** Fruitless periodic collections are counted from this committed heap on. */
    private void countAfresh(long committedBytes) {
        reference = committedBytes;
        fruitless = 0;
    }

    /** The flags now, or null when they are the ones last returned. */
    private Flags changedFlags() {
        Flags before = last;
        Flags now = flags();
        return now.equals(before) ? null : now;
    }

    /** What the heap uses: before its first collection a broker's use is what the last look saw. */
    private long used() {
        return usedAfterCollection >= 0 ? usedAfterCollection : usedAtLook;
    }

    private int ratio(long used) {
        return idle ? idleMaxFree(used) : busyMaxFree(used, busyFloorBytes);
    }

    private Flags flags() {
        int ratio = ratio(used());
        boolean soon = soonCycleFrom < 0 && oversized(committedAtLook, usedAfterCollection, ratio)
                && (soonFruitlessAt < 0 || committedAtLook > soonFruitlessAt + SLACK_BYTES);
        soonAsked = !done && !idle && soon;
        long interval = done ? 0 : idle ? idleIntervalMs : soonAsked ? SOON_INTERVAL_MS : busyIntervalMs;
        last = new Flags(interval, ratio);
        return last;
    }
}
