package io.regina.config;

import io.regina.queue.ClusterStatus;
import io.regina.raft.RaftNode;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/health} component {@code raft}: this node's role, the leader and its indexes.
 * Up when the node runs and knows a leader; that is what the readiness group waits for.
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
        ClusterStatus status = node.status();
        Health.Builder health = status.leaderId() == null ? Health.down() : Health.up();
        return health.withDetail("nodeId", status.nodeId())
                .withDetail("role", status.role())
                .withDetail("leader", String.valueOf(status.leaderId()))
                .withDetail("term", status.term())
                .withDetail("commitIndex", status.commitIndex())
                .withDetail("appliedIndex", status.appliedIndex())
                .withDetail("lastSnapshotIndex", status.lastSnapshotIndex())
                .build();
    }
}
