package io.regina.config;

import io.regina.queue.ClusterStatus;
import io.regina.raft.RaftNode;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/health} component {@code raft}: this node's role, the leader and its indexes, and
 * whether it is in touch with a majority. The readiness group includes it (liveness does not): a node
 * cut off from a majority cannot commit anything, so it should get no traffic, yet restarting it
 * would not help.
 *
 * <p>Up when the node runs and reaches a majority ({@link ClusterStatus#reachesMajority}): a follower
 * that has heard from its leader, a leader that has heard from a majority, within twice the largest
 * election timeout. Ratis often reacts first (a follower that hears nothing campaigns after an election
 * timeout and forgets its leader; a leader that hears from no majority steps down), which makes the node
 * a candidate and so DOWN; the last-contact check covers the node that has not noticed yet and still
 * names a leader. Down too once Ratis closed the node's log after a failed write, or the node's division
 * stopped by itself ({@link RaftNode#stoppedByItself}): only a restart mends those, and {@link StoppedNodeExit}
 * does it.
 */
@Component("raft")
class RaftHealthIndicator implements HealthIndicator {
    private final RaftNode node;

    RaftHealthIndicator(RaftNode node) {
        this.node = node;
    }

    @Override
    public Health health() {
        if (!node.isRunning()) {
            return Health.down().withDetail("role", "STOPPED").build();
        }
        String stopped = node.stoppedByItself();
        if (stopped != null) {
            return Health.down().withDetail("role", "STOPPED").withDetail("stopped", stopped).build();
        }
        if (!node.logOpen()) {
            return Health.down().withDetail("log", "CLOSED after a failed write (a full disk?): free space, "
                    + "then restart the node").build();
        }
        ClusterStatus status = node.status();
        long staleAfterMs = 2 * node.settings().rpcTimeoutMax().toMillis();
        boolean majority = status.reachesMajority(staleAfterMs);
        Health.Builder health = majority ? Health.up() : Health.down();
        return health.withDetail("nodeId", status.nodeId())
                .withDetail("role", status.role())
                .withDetail("leader", String.valueOf(status.leaderId()))
                .withDetail("reachesMajority", majority)
                .withDetail("staleAfterMs", staleAfterMs)
                .withDetail("term", status.term())
                .withDetail("commitIndex", status.commitIndex())
                .withDetail("appliedIndex", status.appliedIndex())
                .withDetail("lastSnapshotIndex", status.lastSnapshotIndex())
                .build();
    }
}
