package io.regina.worker;

import io.regina.client.PopOptions;
import io.regina.client.ReginaClient;
import io.regina.testing.Eventually;
import io.regina.testing.RunningBroker;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link WorkerMain} in a child JVM, as a supervisor runs it: it journals on stdout, and a SIGTERM lets the
 * running job finish and hands back the prefetched rest uncharged.
 */
class WorkerMainIT extends RunningBroker {

    record Nap(int ms) {
    }

    /** Sleeps as long as its payload says. */
    public static final class Napping implements JobHandler<Nap> {
        @Override
        public void handle(Nap payload, JobContext job) throws InterruptedException {
            Thread.sleep(payload.ms());
        }
    }

    @Test
    void aSigtermFinishesTheRunningJobAndHandsBackTheRest() throws Exception {
        String q = "main-" + UUID.randomUUID().toString().substring(0, 8);
        ReginaClient regina = ReginaClient.builder().urls("http://127.0.0.1:" + port).build();
        for (int i = 0; i < 3; i++) {
            regina.dispatch(q, "nap", new Nap(2_000));
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process worker = new ProcessBuilder(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                WorkerMain.class.getName(), "--url", "http://127.0.0.1:" + port, "--queue", q, "--job",
                Napping.class.getName(), "--kind", "nap", "--prefetch", "3", "--lease", "30", "--poll", "1",
                "--journal", "-", "--async-acks", "--grace", "20").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<JsonNode> journal = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(worker.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    journal.add(regina.json().readTree(line));
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        reader.start();
        try {
            Eventually.await(Duration.ofSeconds(60), "the first job to start",
                    () -> journal.stream().anyMatch(l -> l.path("event").asString().equals("started")));

            worker.toHandle().destroy(); // SIGTERM, leaving the pipes open (Process.destroy closes them)
            assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();
            reader.join(5_000);
        } finally {
            worker.destroyForcibly();
        }

        assertThat(journal).extracting(l -> l.path("event").asString())
                .containsExactly("leased", "started", "finished", "acked", "acked", "acked", "done");
        assertThat(journal.get(2).path("ack").path("status").asString()).isEqualTo("completed");
        assertThat(journal.get(4).path("transactionId").asString())
                .isEqualTo(journal.get(0).path("jobs").get(1).path("transactionId").asString());
        var back = regina.pop(q, PopOptions.defaults().batch(5)).messages();
        assertThat(back).hasSize(2).allSatisfy(m -> assertThat(m.attempts()).isEqualTo(1));
    }
}
