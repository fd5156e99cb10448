package io.regina.queue;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * A consumer group on one queue: a cursor per partition and the set of partitions that may be
 * ready for it, in the order they became ready. A pop takes the first truly ready one, dropping
 * stale entries on the way, so it never scans the queue's partitions.
 */
final class Group {
    static final String QUEUE_MODE = "__QUEUE_MODE__";

    final String name;
    final BrokerQueue queue;
    /** The subscription time this group started from (0 for the beginning). */
    long subscribedAt;
    final Map<String, Cursor> cursors = new LinkedHashMap<>();
    final LinkedHashSet<Cursor> ready = new LinkedHashSet<>();
    /**
     * Sums over the cursors of what each last counted ({@link Cursor#recount()}): entries pending, leased and
     * unconsumed (lag), how far the group has settled, and the partitions it holds a lease on. A depth reads
     * these rather than walking the partitions, which at a million of them took 130 ms (issue 8).
     */
    long pending;
    long reserved;
    long lag;
    long settled;
    int claimedPartitions;

    Group(String name, BrokerQueue queue, long subscribedAt) {
        this.name = name;
        this.queue = queue;
        this.subscribedAt = subscribedAt;
    }

    /** The group a request names: queue mode when it names none. */
    static String nameOf(String requested) {
        return requested == null || requested.isEmpty() ? QUEUE_MODE : requested;
    }

    boolean isQueueMode() {
        return QUEUE_MODE.equals(name);
    }
}
