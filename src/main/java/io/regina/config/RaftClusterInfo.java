package io.regina.config;

import io.regina.queue.ClusterInfo;
import io.regina.queue.ClusterStatus;
import io.regina.raft.RaftNode;
import org.springframework.stereotype.Component;

/** {@link ClusterInfo} from the running Raft node. */
@Component
class RaftClusterInfo implements ClusterInfo {
    private final RaftNode node;

    RaftClusterInfo(RaftNode node) {
        this.node = node;
    }

    @Override
    public ClusterStatus status() {
        return node.status();
    }
}
