package io.regina.queue;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * The timer heap: lease expiries, delayed messages and readiness re-checks, ordered by due time
 * and then by a stable key so every replica, and every reload of a snapshot, fires them in the
 * same order. Entries are checked when they fire; a stale one is dropped.
 *
 * <p>A lease resolved by its ack leaves its timer behind until the lease time passes: at thousands of
 * pops a second and a 300 s lease that was hundreds of thousands of dead timers, each holding its lease,
 * and every young collection copied them. So the owner reports each such resolution, and once the dead
 * timers outnumber half the heap they are swept out in one pass (amortized O(1) per resolution; the
 * sweep keeps every live timer, so what fires, and in which order, is unchanged).
 */
final class Timers {

    enum Kind { LEASE, DELAYED, RECHECK }

    record Timer(long due, Kind kind, String key, long number, Object target) { }

    private static final Comparator<Timer> ORDER = Comparator.comparingLong(Timer::due)
            .thenComparing(Timer::kind)
            .thenComparing(Timer::key)
            .thenComparingLong(Timer::number);

    /** Fewer dead timers than this are never worth a sweep. */
    private static final int SWEEP_AT_LEAST = 1024;

    private final PriorityQueue<Timer> heap = new PriorityQueue<>(ORDER);
    private final Predicate<Timer> live;
    private int resolvedSinceSweep;

    /** @param live whether a timer still has work to do when it fires (false: it would be dropped) */
    Timers(Predicate<Timer> live) {
        this.live = live;
    }

    void schedule(long due, Kind kind, String key, long number, Object target) {
        heap.add(new Timer(due, kind, key, number, target));
    }

    /** The target of a scheduled timer was resolved before the timer fired. */
    void resolvedEarly() {
        resolvedSinceSweep++;
        if (resolvedSinceSweep >= SWEEP_AT_LEAST && resolvedSinceSweep >= heap.size() / 2) {
            heap.removeIf(live.negate());
            resolvedSinceSweep = 0;
        }
    }

    /** The next timer due at or before {@code now}, removed from the heap, or null. */
    Timer pollDue(long now) {
        Timer first = heap.peek();
        if (first == null || first.due() > now) {
            return null;
        }
        return heap.poll();
    }

    /** When the earliest timer is due, or {@code Long.MAX_VALUE} when none is set. */
    long nextDue() {
        Timer first = heap.peek();
        return first == null ? Long.MAX_VALUE : first.due();
    }

    int size() {
        return heap.size();
    }

    void clear() {
        heap.clear();
        resolvedSinceSweep = 0;
    }
}
