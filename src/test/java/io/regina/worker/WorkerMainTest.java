package io.regina.worker;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link WorkerMain}'s command line: what it requires, and the job options it reads. */
class WorkerMainTest {

    record Mail(String to) {
    }

    public static class SendMail implements JobHandler<Mail> {
        @Override
        public void handle(Mail payload, JobContext job) {
        }
    }

    static final class UrgentMail extends SendMail {
    }

    @Test
    void urlQueueAndJobAreRequired() {
        assertThatThrownBy(() -> WorkerMain.parse(new String[] {"--url", "http://x:1", "--queue", "q"}))
                .hasMessage("--job is required");
        assertThatThrownBy(() -> WorkerMain.parse(new String[] {"--url"})).hasMessage("unexpected argument '--url'");
        assertThat(WorkerMain.parse(new String[] {"--url", "u", "--queue", "q", "--job", "j", "--async-acks"}))
                .containsEntry("--async-acks", "true").containsEntry("--job", "j");
    }

    @Test
    void theJobOptionsComeFromTheirFlags() {
        JobOptions options = WorkerMain.options(Map.of("--tries", "3", "--backoff", "2, 10", "--timeout", "1.5",
                "--fail-on-timeout", "true", "--max-exceptions", "2", "--retry-until", "600"));

        assertThat(options).isEqualTo(new JobOptions(3, List.of(Duration.ofSeconds(2), Duration.ofSeconds(10)),
                Duration.ofMillis(1500), Duration.ofMinutes(10), 2, true));
        assertThat(WorkerMain.options(Map.of())).isEqualTo(JobOptions.defaults());
    }

    @Test
    void thePayloadTypeIsTheHandlersTypeArgument() {
        assertThat(WorkerMain.payloadType(SendMail.class)).isEqualTo(Mail.class);
        assertThat(WorkerMain.payloadType(UrgentMail.class)).isEqualTo(Mail.class);
        assertThatThrownBy(() -> WorkerMain.payloadType(String.class)).hasMessageContaining("JobHandler<T>");
    }

    @Test
    void asyncAcksWithoutAJournalIsAUsageError() {
        assertThatThrownBy(() -> WorkerMain.worker(Map.of("--url", "http://127.0.0.1:1", "--queue", "q",
                "--job", SendMail.class.getName(), "--async-acks", "true")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("async acks need a journal");
    }
}
