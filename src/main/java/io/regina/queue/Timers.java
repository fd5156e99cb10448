package io.regina.queue;

import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * The timer heap: lease expiries, delayed messages and readiness re-checks, ordered by due time
 * and then by a stable key so every replica, and every reload of a snapshot, fires them in the
 * same order. Entries are checked when they fire; a stale one is dropped.
 */
final class Timers {

    enum Kind { LEASE, DELAYED, RECHECK }

    record Timer(long due, Kind kind, String key, long number, Object target) { }

    private static final Comparator<Timer> ORDER = Comparator.comparingLong(Timer::due)
            .thenComparing(Timer::kind)
            .thenComparing(Timer::key)
            .thenComparingLong(Timer::number);

    private final PriorityQueue<Timer> heap = new PriorityQueue<>(ORDER);

    void schedule(long due, Kind kind, String key, long number, Object target) {
        heap.add(new Timer(due, kind, key, number, target));
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
    }
}
