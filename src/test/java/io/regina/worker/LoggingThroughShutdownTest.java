package io.regina.worker;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A JVM that logs from a shutdown hook, as a worker stopping on SIGTERM does, with and without the manager. */
class LoggingThroughShutdownTest {

    /** Logs in a shutdown hook once the JDK's own hooks had time to run; installs the manager if asked to. */
    public static final class StoppingJvm {
        public static void main(String[] args) {
            if (args.length > 0) {
                WorkerMain.keepLoggingThroughShutdown();
            }
            System.Logger log = System.getLogger(StoppingJvm.class.getName());
            log.log(System.Logger.Level.WARNING, "running");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                log.log(System.Logger.Level.WARNING, "logged while stopping");
            }));
            System.exit(0);
        }
    }

    @Test
    void whatAStoppingWorkerLogsIsWritten() throws Exception {
        assertThat(run(true)).contains("running", "logged while stopping");
    }

    @Test
    void theJdksOwnManagerLosesIt() throws Exception {
        assertThat(run(false)).contains("running").doesNotContain("logged while stopping");
    }

    private static String run(boolean install) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), StoppingJvm.class.getName());
        if (install) {
            builder.command().add("install");
        }
        Process process = builder.redirectErrorStream(true).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
