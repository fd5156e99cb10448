package io.regina.api;

import io.regina.queue.Rejection;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import javax.management.ListenerNotFoundException;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns pushes away with 429 when the heap that survives garbage collection passes a fraction of
 * the maximum heap, so a backlog cannot kill the JVM. Checked before a push enters the log.
 *
 * <p>What survived the last collection changes only when one ends, so it is read then (a notification
 * of each collector) and a push reads a field: reading the heap pools on every push cost ~1% of the
 * event loop's CPU in the paced lane's profile (three native calls and their results a push).
 */
@Component
class MemoryWatermark implements AutoCloseable {
    private final long max = Runtime.getRuntime().maxMemory();
    private final long limit;
    private final List<MemoryPoolMXBean> heapPools;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final NotificationListener onCollection = (notification, handback) -> collected();
    private final List<NotificationEmitter> collectors = new ArrayList<>();
    private volatile long liveAfterGc;

    MemoryWatermark(@Value("${regina.memory.max-heap-fraction:0.85}") double maxFraction) {
        this.limit = (long) (max * maxFraction);
        this.heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP && pool.isCollectionUsageThresholdSupported())
                .toList();
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(onCollection, null, null);
                collectors.add(emitter);
            }
        }
        collected();
    }

    /** A collection ended: what the heap pools kept is the live heap until the next one. */
    private void collected() {
        long live = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            MemoryUsage afterGc = pool.getCollectionUsage();
            if (afterGc != null) {
                live += afterGc.getUsed();
            }
        }
        liveAfterGc = live;
    }

    void checkPush() {
        long live = liveAfterGc;
        // "After the last GC" goes stale once a big queue is deleted and no old-generation GC ran since;
        // the heap in use right now bounds what is live from above, so below the limit it clears us.
        if (max > 0 && live > limit && memory.getHeapMemoryUsage().getUsed() > limit) {
            throw ApiException.of(Rejection.MEMORY_FULL, live >> 20, max >> 20);
        }
    }

    /** The collectors are the JVM's: a closed application context stops listening to them. */
    @Override
    public void close() {
        for (NotificationEmitter emitter : collectors) {
            try {
                emitter.removeNotificationListener(onCollection);
            } catch (ListenerNotFoundException e) {
                // not listening: nothing to stop
            }
        }
    }

    /**
     * The refusal of a request that ran out of heap while it was read or prepared, before the watermark saw
     * the heap fill (a large push on a small heap): the same 429 as past the watermark, never a 500 or a cut
     * connection. What the request allocated is garbage once it is refused.
     */
    static ApiException outOfHeap() {
        Runtime runtime = Runtime.getRuntime();
        return ApiException.of(Rejection.MEMORY_FULL, (runtime.totalMemory() - runtime.freeMemory()) >> 20,
                runtime.maxMemory() >> 20);
    }
}
