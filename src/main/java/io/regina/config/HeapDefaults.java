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
import java.lang.management.MemoryUsage;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * The heap behaviour a broker started without JVM flags gets. The JVM's defaults are made for a batch
 * job: G1 grows the committed heap to keep its GC time low while requests stream in and keeps it when
 * the load stops (a broker that served a burst sat at 600 MB RSS with a live set under 100 MB). These are
 * the flags HotSpot lets a running JVM change; any the user set on the command line is left alone:
 * <ul>
 *   <li>{@code MinHeapFreeRatio=10}, {@code MaxHeapFreeRatio=30}: after a cycle the heap keeps at most 30%
 *       free above the live set, not 70%;</li>
 *   <li>{@code G1PeriodicGCInterval}, set while the broker is idle: a concurrent cycle every 5 s returns the
 *       heap it no longer needs to the OS, until there is nothing left to return ({@link PeriodicCollections}
 *       says when); off while it is busy.</li>
 * </ul>
 * The maximum heap stays the JVM's (a quarter of the machine's memory): messages live on the heap, and
 * the memory watermark refuses pushes before it fills.
 */
public final class HeapDefaults {
    private static final Logger LOG = LoggerFactory.getLogger(HeapDefaults.class);

    /** Applied in this order: MinHeapFreeRatio may not exceed MaxHeapFreeRatio at any step. */
    private static final Map<String, String> RATIOS = orderedRatios();
    private static final String PERIODIC_INTERVAL = "G1PeriodicGCInterval";
    private static final String PERIODIC_CAUSE = "G1 Periodic Collection";

    private HeapDefaults() {
    }

    private static Map<String, String> orderedRatios() {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("MinHeapFreeRatio", "10");
        flags.put("MaxHeapFreeRatio", "30");
        return flags;
    }

    /** Sets each flag still at the JVM's default; a flag this JVM does not have (another GC) is skipped. */
    public static void apply() {
        apply(PeriodicCollections.LOOK_MS, PeriodicCollections.LOOK_MS);
    }

    static void apply(long lookMs, long periodicIntervalMs) {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotspot == null) {
            return;
        }
        RATIOS.forEach((name, value) -> setIfDefault(hotspot, name, value));
        if (setIfDefault(hotspot, PERIODIC_INTERVAL, "0")) {
            managePeriodicCollections(hotspot, new PeriodicCollections(periodicIntervalMs), lookMs);
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

    /**
     * Hands {@code policy} every collection (from the JVM's notification thread) and a look at the heap every
     * {@code lookMs} (from a daemon thread of its own), and sets the interval it asks for.
     */
    private static void managePeriodicCollections(HotSpotDiagnosticMXBean hotspot, PeriodicCollections policy,
            long lookMs) {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        LongConsumer setInterval = interval -> {
            if (interval >= 0) {
                hotspot.setVMOption(PERIODIC_INTERVAL, Long.toString(interval));
                LOG.debug("G1 periodic collection interval now {} ms", interval);
            }
        };
        NotificationListener listener = (notification, handback) -> {
            GarbageCollectionNotificationInfo info =
                    GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
            long interval = -1;
            synchronized (policy) {
                if (PERIODIC_CAUSE.equals(info.getGcCause())) {
                    interval = policy.periodicCollected(memory.getHeapMemoryUsage().getCommitted());
                } else {
                    policy.collected();
                }
            }
            setInterval.accept(interval);
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
            long interval;
            synchronized (policy) {
                interval = policy.look(heap.getUsed(), heap.getCommitted());
            }
            setInterval.accept(interval);
        }, lookMs, lookMs, TimeUnit.MILLISECONDS);
    }
}
