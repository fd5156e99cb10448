package io.regina.config;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Each case runs a fresh JVM: the flags are the process's, and a test JVM's may have been set already. */
class HeapDefaultsTest {

    @Test
    void aJvmStartedWithoutFlagsGetsTheBrokersHeapBehaviour() throws Exception {
        assertThat(flagsAfterApply()).isEqualTo("MinHeapFreeRatio=10 MaxHeapFreeRatio=30 G1PeriodicGCInterval=10000");
    }

    @Test
    void aFlagTheUserSetIsLeftAsSet() throws Exception {
        assertThat(flagsAfterApply("-XX:MaxHeapFreeRatio=50", "-XX:G1PeriodicGCInterval=0"))
                .isEqualTo("MinHeapFreeRatio=10 MaxHeapFreeRatio=50 G1PeriodicGCInterval=0");
    }

    @Test
    void periodicCollectionsStopOnceAnIdleHeapHasNothingToReturnAndResumeWhenLoadGrowsIt() throws Exception {
        assertThat(run(IdleProbe.class, List.of("-Xmx1g"), "15").lines())
                .containsExactly("off while idle: 0", "collections while off: 0", "on after growth: 200");
    }

    @Test
    void aPeriodicIntervalTheUserSetIsNotManaged() throws Exception {
        // managed, it would be off within about a second (four collections 200 ms apart)
        assertThat(run(IdleProbe.class, List.of("-Xmx1g", "-XX:G1PeriodicGCInterval=200"), "3").lines().findFirst())
                .hasValue("off while idle: 200");
    }

    private static String flagsAfterApply(String... jvmFlags) throws IOException, InterruptedException {
        return run(Probe.class, List.of(jvmFlags));
    }

    private static String run(Class<?> probeClass, List<String> jvmFlags, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmFlags);
        command.addAll(List.of("-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"), probeClass.getName()));
        command.addAll(List.of(args));
        Process probe = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(probe.waitFor(60, TimeUnit.SECONDS)).as("the probe JVM ended").isTrue();
        return new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }

    /**
     * With a 200 ms interval: idles until the periodic collections turn themselves off (at most args[0] s), checks
     * that none runs while off, then holds 300 MB so the heap grows, and reads the interval again.
     */
    public static final class IdleProbe {
        private static final long INTERVAL_MS = 200;
        static byte[][] held;

        public static void main(String[] args) throws InterruptedException {
            HeapDefaults.apply(INTERVAL_MS);
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[0]));
            while (!interval(hotspot).equals("0") && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            System.out.println("off while idle: " + interval(hotspot));
            long before = collections();
            Thread.sleep(5 * INTERVAL_MS);
            System.out.println("collections while off: " + (collections() - before));
            held = new byte[3_000][];
            for (int i = 0; i < held.length; i++) {
                held[i] = new byte[100_000];
            }
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!interval(hotspot).equals(Long.toString(INTERVAL_MS)) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            System.out.println("on after growth: " + interval(hotspot));
        }

        private static String interval(HotSpotDiagnosticMXBean hotspot) {
            return hotspot.getVMOption("G1PeriodicGCInterval").getValue();
        }

        private static long collections() {
            return ManagementFactory.getGarbageCollectorMXBeans().stream()
                    .mapToLong(java.lang.management.GarbageCollectorMXBean::getCollectionCount).sum();
        }
    }

    /** Applies the defaults in its own JVM and prints the three flags. */
    public static final class Probe {
        public static void main(String[] args) {
            HeapDefaults.apply();
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            StringBuilder out = new StringBuilder();
            for (String flag : List.of("MinHeapFreeRatio", "MaxHeapFreeRatio", "G1PeriodicGCInterval")) {
                out.append(flag).append('=').append(hotspot.getVMOption(flag).getValue()).append(' ');
            }
            System.out.println(out.toString().strip());
        }
    }
}
