package io.regina.config;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The heap behaviour a broker started without JVM flags gets. The JVM's defaults are made for a batch
 * job: G1 grows the committed heap to keep its GC time low while requests stream in and keeps it when
 * the load stops (a broker that served a burst sat at 600 MB RSS with a live set under 100 MB). These are
 * the flags HotSpot lets a running JVM change; any the user set on the command line is left alone:
 * <ul>
 *   <li>{@code G1PeriodicGCInterval=10000}: a broker idle for 10 s runs a concurrent cycle, which returns
 *       the heap it no longer needs to the OS;</li>
 *   <li>{@code MinHeapFreeRatio=10}, {@code MaxHeapFreeRatio=30}: after a cycle the heap keeps at most 30%
 *       free above the live set, not 70%.</li>
 * </ul>
 * The maximum heap stays the JVM's (a quarter of the machine's memory): messages live on the heap, and
 * the memory watermark refuses pushes before it fills.
 */
public final class HeapDefaults {
    private static final Logger LOG = LoggerFactory.getLogger(HeapDefaults.class);

    /** Applied in this order: MinHeapFreeRatio may not exceed MaxHeapFreeRatio at any step. */
    private static final Map<String, String> FLAGS = orderedFlags();

    private HeapDefaults() {
    }

    private static Map<String, String> orderedFlags() {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("MinHeapFreeRatio", "10");
        flags.put("MaxHeapFreeRatio", "30");
        flags.put("G1PeriodicGCInterval", "10000");
        return flags;
    }

    /** Sets each flag still at the JVM's default; a flag this JVM does not have (another GC) is skipped. */
    public static void apply() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotspot == null) {
            return;
        }
        FLAGS.forEach((name, value) -> {
            try {
                if (hotspot.getVMOption(name).getOrigin() == VMOption.Origin.DEFAULT) {
                    hotspot.setVMOption(name, value);
                }
            } catch (IllegalArgumentException e) {
                LOG.debug("JVM option {} not set: {}", name, e.getMessage());
            }
        });
    }
}
