package io.regina.faults;

import io.regina.testing.BrokerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lane 3: the way an operator upgrades, under load: SIGTERM each node in turn, start it again on its
 * data, wait until it serves and has caught up with the leader, then the next.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class RollingRestartIT {

    @Test
    void everyNodeRestartedInTurnLosesNothing(@TempDir Path dir) throws Exception {
        try (FaultRun run = FaultRun.start(dir, "rolling-restart", 3)) {
            run.steady(Duration.ofSeconds(5));
            for (BrokerProcess node : run.cluster().nodes()) {
                node.stop();
                run.steady(Duration.ofSeconds(2));
                run.restartAndCatchUp(node);
                run.steady(Duration.ofSeconds(3));
            }

            Report report = run.finish();

            report.assertClean();
            assertThat(report.acknowledged()).as("the load ran").isGreaterThan(100);
            assertThat(report.longestWriteGapMs()).as("the write unavailability while the leader restarts")
                    .isLessThan(15_000);
        }
    }
}
