package io.regina.api;

import io.regina.api.dto.SystemBodies;
import io.regina.queue.ClusterInfo;
import io.regina.queue.ClusterStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.ArrayList;
import java.util.List;

/** {@code GET /api/v1/cluster} (API.md B4): this node, the leader, the indexes and every peer. */
@RestController
class ClusterController {
    private final ClusterInfo cluster;

    ClusterController(ClusterInfo cluster) {
        this.cluster = cluster;
    }

    @GetMapping("/api/v1/cluster")
    SystemBodies.Cluster cluster() {
        ClusterStatus status = cluster.status();
        List<SystemBodies.Peer> peers = new ArrayList<>(status.peers().size());
        for (ClusterStatus.Peer peer : status.peers()) {
            peers.add(new SystemBodies.Peer(peer.id(), peer.address(), peer.role(), peer.matchIndex(),
                    peer.commitIndex()));
        }
        return new SystemBodies.Cluster(status.nodeId(), status.role(), status.leaderId(), status.term(),
                status.commitIndex(), status.appliedIndex(), status.lastSnapshotIndex(), peers);
    }
}
