package io.regina.api;

import io.regina.queue.Rejection;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;

/**
 * Turns pushes away with 429 when the heap that survives garbage collection passes a fraction of
 * the maximum heap, so a backlog cannot kill the JVM. Checked before a push enters the log.
 */
@Component
class MemoryWatermark {
    private final double maxFraction;
    private final List<MemoryPoolMXBean> heapPools;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

    MemoryWatermark(@Value("${regina.memory.max-heap-fraction:0.85}") double maxFraction) {
        this.maxFraction = maxFraction;
        this.heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP && pool.isCollectionUsageThresholdSupported())
                .toList();
    }

    void checkPush() {
        long max = Runtime.getRuntime().maxMemory();
        long limit = (long) (max * maxFraction);
        long live = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            MemoryUsage afterGc = pool.getCollectionUsage();
            if (afterGc != null) {
                live += afterGc.getUsed();
            }
        }
        // "After the last GC" goes stale once a big queue is deleted and no old-generation GC ran since;
        // the heap in use right now bounds what is live from above, so below the limit it clears us.
        if (max > 0 && live > limit && memory.getHeapMemoryUsage().getUsed() > limit) {
            throw ApiException.of(Rejection.MEMORY_FULL, live >> 20, max >> 20);
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
