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
 * Lane 4: a node SIGKILLed and its newest log segment cut inside the write that was in flight, as a
 * power cut leaves it ({@link TornTail}: never inside an entry the node had acknowledged). A follower
 * starts, drops the torn entry and catches up from the leader; a single node starts too and has
 * everything it acknowledged.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class TornTailIT {

    @Test
    void aFollowerWithATornTailCatchesUp(@TempDir Path dir) throws Exception {
        try (FaultRun run = FaultRun.start(dir, "torn-tail-follower", 3)) {
            run.steady(Duration.ofSeconds(6));
            String leader = run.leader();
            BrokerProcess follower = run.others(leader).get(0);
            run.killAndTear(follower);
            run.steady(Duration.ofSeconds(2));
            run.restartAndCatchUp(follower);
            run.steady(Duration.ofSeconds(3));

            Report report = run.finish();

            report.assertClean();
            assertThat(report.acknowledged()).as("the load ran").isGreaterThan(100);
        }
    }

    @Test
    void aSingleNodeWithATornTailKeepsWhatItAcknowledged(@TempDir Path dir) throws Exception {
        try (FaultRun run = FaultRun.start(dir, "torn-tail-single", 1)) {
            run.steady(Duration.ofSeconds(6));
            run.pauseLoad();
            BrokerProcess node = run.cluster().node("n1");
            // a queue with retention makes the idle leader tick every second: the newest entries are ticks
            assertThat(node.send("POST", "/api/v1/configure", "{\"queue\":\"torn-tail-retention\",\"options\":"
                    + "{\"retentionEnabled\":true,\"retentionSeconds\":3600}}").statusCode()).isEqualTo(200);
            long answered = killAfterTwoTicks(node);
            run.figure("torn", TornTail.tear(node.dataDir(), answered));
            node.start();
            // the ticks it writes now go after the cut: a second crash must find them, not the torn bytes
            killAfterTwoTicks(node);
            node.start();
            run.resumeConsumers();

            Report report = run.finish();

            report.assertClean();
            assertThat(report.acknowledged()).as("the load ran").isGreaterThan(100);
        }
    }

    /**
     * SIGKILL two of the leader's ticks after the last client was answered: the newest entries are ticks.
     * Returns the index up to which clients may have been answered; the ticks past it answered nobody.
     */
    private static long killAfterTwoTicks(BrokerProcess node) throws Exception {
        long applied = ClusterProbe.cluster(node).get("appliedIndex").asLong();
        ClusterProbe.awaitApplied(node, applied + 2, Duration.ofSeconds(10));
        node.kill();
        return applied;
    }
}
