package io.regina.worker.spring;

import io.regina.client.ReginaClient;
import io.regina.testing.Eventually;
import io.regina.testing.RunningBroker;
import io.regina.worker.JobContext;
import io.regina.worker.JobOptions;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ReginaJob} methods of a Spring application's bean, run by {@link ReginaJobMethods} against the broker. */
class ReginaJobMethodsIT extends RunningBroker {
    record Welcome(String to) {
    }

    /** An application's bean with a job kind. */
    public static class Mailer {
        final List<String> sent = new CopyOnWriteArrayList<>();

        @ReginaJob(value = "flaky-welcome", queue = "spring-jobs", tries = 2, backoff = 1)
        public void flaky(Welcome welcome, JobContext job) {
            if (job.attempt() == 1) {
                throw new IllegalStateException("mail server busy");
            }
            sent.add(welcome.to() + "@" + job.attempt());
        }
    }

    @Test
    void theAnnotatedMethodsRunAsJobKindsWithTheirOptions() {
        ReginaClient regina = ReginaClient.builder().urls("http://127.0.0.1:" + port).build();
        Mailer mailer;
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            context.registerBean(ReginaJobMethods.class, () -> new ReginaJobMethods(regina,
                    worker -> worker.pollTimeout(Duration.ofSeconds(1)), Duration.ofSeconds(5)));
            context.registerBean(Mailer.class);
            context.refresh();
            mailer = context.getBean(Mailer.class);
            regina.dispatch("spring-jobs", "flaky-welcome", new Welcome("ada"));

            Eventually.await(Duration.ofSeconds(30), "the job to succeed on its second try",
                    () -> !mailer.sent.isEmpty());
        }
        assertThat(mailer.sent).containsExactly("ada@2");
    }

    @Test
    void theAnnotationsAttributesAreTheKindsOptions() throws Exception {
        ReginaJob flaky = Mailer.class.getMethod("flaky", Welcome.class, JobContext.class).getAnnotation(ReginaJob.class);
        assertThat(ReginaJobMethods.options(flaky)).isEqualTo(JobOptions.defaults().tries(2).backoff(1));
    }
}
