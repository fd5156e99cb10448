package io.regina.worker.micrometer;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.regina.worker.Verdict;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The meters {@link MicrometerWorkerMetrics} records, by name and tag. */
class MicrometerWorkerMetricsTest {

    @Test
    void jobsRenewalsAndHandBacksAreCountedByTheirTags() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerWorkerMetrics metrics = new MicrometerWorkerMetrics(registry);

        metrics.jobFinished("mail", new Verdict.Complete(), Duration.ofMillis(30));
        metrics.jobFinished("mail", new Verdict.Complete(), Duration.ofMillis(50));
        metrics.jobFinished("mail", new Verdict.Fail("no", null), Duration.ofMillis(5));
        metrics.leaseRenewed(true);
        metrics.leaseRenewed(false);
        metrics.handedBack(3);

        var completed = registry.get("regina.worker.jobs").tags("kind", "mail", "verdict", "complete").timer();
        assertThat(completed.count()).isEqualTo(2);
        assertThat(completed.totalTime(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(80);
        assertThat(registry.get("regina.worker.jobs").tags("verdict", "fail").timer().count()).isEqualTo(1);
        assertThat(registry.get("regina.worker.lease.renewals").tags("outcome", "failed").counter().count())
                .isEqualTo(1);
        assertThat(registry.get("regina.worker.handbacks").counter().count()).isEqualTo(3);
    }
}
