package io.regina.config;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The heap behaviour a broker started without JVM flags gets. The JVM's defaults are made for a batch
 * job: G1 grows the committed heap to keep its GC time low while requests stream in and keeps it when
 * the load stops (a broker that served a burst sat at 600 MB RSS with a live set under 100 MB). These are
 * the flags HotSpot lets a running JVM change; any the user set on the command line is left alone:
 * <ul>
 *   <li>{@code MinHeapFreeRatio=10}: a cycle that finds the heap short grows it to 10% free, not 40%;</li>
 *   <li>{@code G1PeriodicGCInterval} and {@code MaxHeapFreeRatio}, set as {@link PeriodicCollections} says:
 *       while the broker is busy a cycle after 10 s without a collection (and any remark) keeps 50-70% free,
 *       the heap over a quarter of the initial one, and a heap well over that gets a cycle after 1 s without
 *       one; while it is idle a cycle every 5 s keeps 64 MB free above what is used, within 30-60%; in both,
 *       none once there is nothing left to return.</li>
 * </ul>
 * The maximum heap stays the JVM's (a quarter of the machine's memory): messages live on the heap, and
 * the memory watermark refuses pushes before it fills.
 */
public final class HeapDefaults {
    private static final Logger LOG = LoggerFactory.getLogger(HeapDefaults.class);

    private static final String MIN_FREE = "MinHeapFreeRatio";
    private static final String MAX_FREE = "MaxHeapFreeRatio";
    private static final String PERIODIC_INTERVAL = "G1PeriodicGCInterval";
    private static final String PERIODIC_CAUSE = "G1 Periodic Collection";

    private HeapDefaults() {
    }

    /** Sets each flag still at the JVM's default; a flag this JVM does not have (another GC) is skipped. */
    public static void apply() {
        apply(PeriodicCollections.LOOK_MS, PeriodicCollections.BUSY_INTERVAL_MS, PeriodicCollections.IDLE_INTERVAL_MS);
    }

    static void apply(long lookMs, long busyIntervalMs, long idleIntervalMs) {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotspot == null) {
            return;
        }
        PeriodicCollections policy = new PeriodicCollections(busyIntervalMs, idleIntervalMs, busyFloorBytes(hotspot));
        PeriodicCollections.Flags initial = policy.initial();
        // MinHeapFreeRatio may not exceed MaxHeapFreeRatio at any step: the minimum first, it only comes down
        setIfDefault(hotspot, MIN_FREE, "10");
        boolean maxFree = setIfDefault(hotspot, MAX_FREE, Integer.toString(initial.maxHeapFreeRatio()));
        boolean interval = setIfDefault(hotspot, PERIODIC_INTERVAL, Long.toString(initial.intervalMs()));
        if (maxFree || interval) {
            managePeriodicCollections(policy, lookMs, flags -> {
                if (maxFree) {
                    hotspot.setVMOption(MAX_FREE, Integer.toString(flags.maxHeapFreeRatio()));
                }
                if (interval) {
                    hotspot.setVMOption(PERIODIC_INTERVAL, Long.toString(flags.intervalMs()));
                }
                LOG.debug("heap return now {}", flags);
            });
        }
    }

    /** A quarter of the JVM's initial heap and two regions: see {@link PeriodicCollections#busyMaxFree}. */
    private static long busyFloorBytes(HotSpotDiagnosticMXBean hotspot) {
        try {
            return Long.parseLong(hotspot.getVMOption("InitialHeapSize").getValue()) / 4
                    + PeriodicCollections.SLACK_BYTES;
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    private static boolean setIfDefault(HotSpotDiagnosticMXBean hotspot, String name, String value) {
        try {
            if (hotspot.getVMOption(name).getOrigin() == VMOption.Origin.DEFAULT) {
                hotspot.setVMOption(name, value);
                return true;
            }
        } catch (IllegalArgumentException e) {
            LOG.debug("JVM option {} not set: {}", name, e.getMessage());
        }
        return false;
    }

    /** The heap a collection left used: the sum over the heap's pools (G1's eden, survivor and old spaces). */
    private static long usedAfter(GarbageCollectionNotificationInfo info, List<String> heapPools) {
        Map<String, MemoryUsage> after = info.getGcInfo().getMemoryUsageAfterGc();
        long used = 0;
        for (String pool : heapPools) {
            MemoryUsage usage = after.get(pool);
            if (usage != null) {
                used += usage.getUsed();
            }
        }
        return used;
    }

    /**
     * Hands {@code policy} every collection (from the JVM's notification thread) and a look at the heap every
     * {@code lookMs} (from a daemon thread of its own), and sets the flags it asks for.
     */
    private static void managePeriodicCollections(PeriodicCollections policy, long lookMs,
            Consumer<PeriodicCollections.Flags> set) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        List<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).toList();
        NotificationListener listener = (notification, handback) -> {
            GarbageCollectionNotificationInfo info =
                    GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
            PeriodicCollections.Flags flags = null;
            long usedAfter = usedAfter(info, heapPools);
            synchronized (policy) {
                if (PERIODIC_CAUSE.equals(info.getGcCause())) {
                    flags = policy.periodicCollected(memory.getHeapMemoryUsage().getCommitted(), usedAfter);
                } else {
                    flags = policy.collected(usedAfter);
                }
            }
            if (flags != null) {
                set.accept(flags);
            }
        };
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, n -> GarbageCollectionNotificationInfo
                        .GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType()), null);
            }
        }
        ScheduledExecutorService looks = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "regina-heap-return");
            thread.setDaemon(true);
            return thread;
        });
        looks.scheduleWithFixedDelay(() -> {
            MemoryUsage heap = memory.getHeapMemoryUsage();
            PeriodicCollections.Flags flags;
            synchronized (policy) {
                flags = policy.look(heap.getUsed(), heap.getCommitted());
            }
            if (flags != null) {
                set.accept(flags);
            }
        }, lookMs, lookMs, TimeUnit.MILLISECONDS);
    }
}
