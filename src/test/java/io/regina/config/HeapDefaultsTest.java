package io.regina.config;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.HotSpotDiagnosticMXBean;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Each case runs a fresh JVM: the flags are the process's, and a test JVM's may have been set already. */
class HeapDefaultsTest {

    @Test
    void aJvmStartedWithoutFlagsGetsTheBrokersHeapBehaviour() throws Exception {
        assertThat(flagsAfterApply()).isEqualTo("MinHeapFreeRatio=10 MaxHeapFreeRatio=70 G1PeriodicGCInterval=10000");
    }

    @Test
    void aFlagTheUserSetIsLeftAsSet() throws Exception {
        assertThat(flagsAfterApply("-XX:MaxHeapFreeRatio=50", "-XX:G1PeriodicGCInterval=0"))
                .isEqualTo("MinHeapFreeRatio=10 MaxHeapFreeRatio=50 G1PeriodicGCInterval=0");
    }

    @Test
    void periodicCollectionsRunWhileIdleUntilNothingIsLeftToReturnAndNeverUnderLoad() throws Exception {
        assertThat(run(IdleProbe.class, List.of("-Xmx1g"), "managed").lines()).containsExactly(
                "idle: heap given back true, then off, max free 60",
                "periodic collections while done: 0",
                "under load: periodic collections 0, young collections more than 10 true, max free 70",
                "idle after the heap grew: heap given back true, then off, max free 60");
    }

    @Test
    void aPeriodicIntervalTheUserSetIsNotManaged() throws Exception {
        assertThat(run(IdleProbe.class, List.of("-Xmx1g", "-XX:G1PeriodicGCInterval=200"), "user").lines())
                .containsExactly("interval after 3 s idle: 200");
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
        assertThat(probe.waitFor(150, TimeUnit.SECONDS)).as("the probe JVM ended").isTrue();
        return new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }

    /**
     * Looks every 100 ms with a 200 ms interval while idle (1 s while busy), so that a few seconds show
     * what a broker does in a minute:
     * idles until the periodic collections have given the heap back and turned themselves off, checks none runs
     * then, allocates garbage for 3 s (young collections, none periodic), holds 300 MB so the heap grows, lets
     * it go and idles again.
     */
    public static final class IdleProbe {
        private static final AtomicLong PERIODIC = new AtomicLong();
        private static final AtomicLong NOTIFIED = new AtomicLong();
        private static long collectionsBeforeListening;
        static volatile byte[][] held;
        static volatile byte[] sink;

        public static void main(String[] args) throws Exception {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (args[0].equals("user")) {
                HeapDefaults.apply(100, 1_000, 200);
                Thread.sleep(3_000);
                System.out.println("interval after 3 s idle: " + interval(hotspot));
                return;
            }
            countPeriodicCollections();
            HeapDefaults.apply(100, 1_000, 200);
            System.out.println("idle: " + idleUntilOff(hotspot));
            long periodic = PERIODIC.get();
            Thread.sleep(2_000);
            System.out.println("periodic collections while done: " + (PERIODIC.get() - periodic));
            // counted from the load's first collection on: a periodic check that falls between the look that sees
            // the load and that collection still finds the idle spell's last collection seconds old, and that
            // collection's notification reaches the listener after the count has moved, so wait for it too
            long young = collections();
            while (collections() == young) {
                allocate();
            }
            // and a periodic collection G1 decided on before that collection (its check runs every second while
            // the interval is 0, and the policy turns it on as it sees the load) may still run just after it: the
            // load goes on for a check period before the count starts (CI saw one such collection "under load")
            long settled = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_200);
            while (System.nanoTime() < settled) {
                allocate();
                Thread.sleep(1);
            }
            awaitNotifications(collections());
            periodic = PERIODIC.get();
            young = collections();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            while (System.nanoTime() < until) {
                allocate();
                Thread.sleep(1);
            }
            System.out.println("under load: periodic collections " + (PERIODIC.get() - periodic)
                    + ", young collections more than 10 " + (collections() - young > 10) + ", max free "
                    + hotspot.getVMOption("MaxHeapFreeRatio").getValue());
            held = new byte[3_000][];
            for (int i = 0; i < held.length; i++) {
                held[i] = new byte[100_000];
            }
            held = null;
            System.out.println("idle after the heap grew: " + idleUntilOff(hotspot));
        }

        private static void allocate() {
            for (int i = 0; i < 1_000; i++) {
                sink = new byte[10_000];
            }
        }

        /**
         * Waits (at most 45 s) for the periodic collections to come on and go off again: on a loaded host
         * (CI) a heap given back from over 300 MB took longer than 20 s of cycles to be done.
         */
        private static String idleUntilOff(HotSpotDiagnosticMXBean hotspot) throws InterruptedException {
            long before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
            long periodic = PERIODIC.get();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
            while ((PERIODIC.get() == periodic || !interval(hotspot).equals("0")) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            long after = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted();
            return "heap given back " + (after < before) + ", then " + (interval(hotspot).equals("0") ? "off" : "on")
                    + ", max free " + hotspot.getVMOption("MaxHeapFreeRatio").getValue();
        }

        private static void countPeriodicCollections() {
            collectionsBeforeListening = collections();
            for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
                ((NotificationEmitter) collector).addNotificationListener((n, h) -> {
                    if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                        return;
                    }
                    if (GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()).getGcCause()
                            .equals("G1 Periodic Collection")) {
                        PERIODIC.incrementAndGet();
                    }
                    NOTIFIED.incrementAndGet();
                }, null, null);
            }
        }

        /** The JVM notifies a collection from its service thread, after the collection counts already show it. */
        private static void awaitNotifications(long collections) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (collectionsBeforeListening + NOTIFIED.get() < collections && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
        }

        private static String interval(HotSpotDiagnosticMXBean hotspot) {
            return hotspot.getVMOption("G1PeriodicGCInterval").getValue();
        }

        private static long collections() {
            return ManagementFactory.getGarbageCollectorMXBeans().stream()
                    .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
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
