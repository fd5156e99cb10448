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

    private static String flagsAfterApply(String... jvmFlags) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmFlags));
        command.addAll(List.of("-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process probe = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(probe.waitFor(60, TimeUnit.SECONDS)).as("the probe JVM ended").isTrue();
        return new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
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
