package io.regina.faults;

import io.regina.testing.BrokerProcess;

import java.time.Duration;
import java.util.Set;

/**
 * SIGSTOP the leader for a while, then SIGCONT: the others elect a new leader while it is frozen,
 * and it rejoins as their follower when it wakes. Returns the election gap: from the SIGSTOP until
 * another node calls itself leader (also reported as the lane's {@code electionGapMs}).
 */
final class Freeze {

    private Freeze() {
    }

    static Duration leader(FaultRun run, Duration frozenFor) throws Exception {
        String leader = run.leader();
        BrokerProcess frozen = run.cluster().node(leader);
        long stoppedAt = System.nanoTime();
        run.figure("frozenAtMs", run.history().now());
        frozen.freeze();
        Duration electionGap;
        try {
            ClusterProbe.awaitLeader(run.others(leader), Set.of(leader), FaultRun.LEADER_TIMEOUT);
        } finally {
            electionGap = Duration.ofNanos(System.nanoTime() - stoppedAt);
            long left = frozenFor.minus(electionGap).toMillis();
            if (left > 0) {
                Thread.sleep(left);
            }
            frozen.thaw();
            run.figure("electionGapMs", electionGap.toMillis());
        }
        ClusterProbe.awaitFollower(frozen, FaultRun.LEADER_TIMEOUT);
        return electionGap;
    }
}
