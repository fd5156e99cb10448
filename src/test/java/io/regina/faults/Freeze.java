package io.regina.faults;

import io.regina.testing.BrokerProcess;

import java.time.Duration;
import java.util.Set;

/**
 * SIGSTOP the leader for a while, then SIGCONT: the others elect a new leader while it is frozen,
 * and it rejoins as their follower when it wakes. Returns the election gap: from the SIGSTOP until
 * another node calls itself leader.
 */
final class Freeze {

    private Freeze() {
    }

    static Duration leader(FaultRun run, Duration frozenFor) throws Exception {
        String leader = run.leader();
        BrokerProcess frozen = run.cluster().node(leader);
        long stoppedAt = System.nanoTime();
        frozen.freeze();
        try {
            ClusterProbe.awaitLeader(run.others(leader), Set.of(leader), FaultRun.LEADER_TIMEOUT);
        } finally {
            long elected = System.nanoTime();
            long left = frozenFor.toNanos() - (elected - stoppedAt);
            if (left > 0) {
                Thread.sleep(left / 1_000_000);
            }
            frozen.thaw();
            run.figure("electionGapMs", (elected - stoppedAt) / 1_000_000);
        }
        ClusterProbe.awaitFollower(frozen, FaultRun.LEADER_TIMEOUT);
        return Duration.ofNanos(System.nanoTime() - stoppedAt);
    }
}
