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
 * Lane 2: a follower is killed and the others go on writing until the leader has taken snapshots and
 * purged the log the follower would need (small segments, a snapshot every 200 entries, purge up to
 * the snapshot); restarted, the follower can only catch up by installing the leader's snapshot
 * through Ratis, and then answers with the same state as the others.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class SnapshotRejoinIT {

    @Test
    void aFollowerBehindThePurgedLogInstallsTheSnapshot(@TempDir Path dir) throws Exception {
        try (FaultRun run = FaultRun.start(dir, "snapshot-rejoin", 3, "--regina.raft.snapshot-threshold=200",
                "--regina.raft.segment-size-bytes=65536", "--regina.raft.purge-up-to-snapshot=true")) {
            run.steady(Duration.ofSeconds(4));
            String leader = run.leader();
            BrokerProcess follower = run.others(leader).get(0);
            long appliedWhenKilled = ClusterProbe.cluster(follower).get("appliedIndex").asLong();
            follower.kill();
            BrokerProcess leaderNode = run.cluster().node(leader);
            leaderNode.await(Duration.ofSeconds(120), "the leader purging its log past index " + appliedWhenKilled,
                    () -> LogSegments.firstIndex(leaderNode.dataDir()), first -> first > appliedWhenKilled + 1);
            run.figure("followerAppliedWhenKilled", appliedWhenKilled);
            run.figure("leaderFirstLogIndex", LogSegments.firstIndex(leaderNode.dataDir()));

            run.restartAndCatchUp(follower);
            run.steady(Duration.ofSeconds(3));

            Report report = run.finish();

            report.assertClean();
            assertThat(report.acknowledged()).as("the load ran").isGreaterThan(100);
            assertThat(LogSegments.firstIndex(follower.dataDir())).as("the follower's log starts after the snapshot")
                    .isGreaterThan(appliedWhenKilled + 1);
        }
    }
}
