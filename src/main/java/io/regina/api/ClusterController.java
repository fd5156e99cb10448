package io.regina.api;

import io.regina.queue.ClusterInfo;
import io.regina.queue.ClusterStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code GET /api/v1/cluster} (API.md B4): this node, the leader, the indexes and every peer. */
@RestController
class ClusterController {
    private final ClusterInfo cluster;

    ClusterController(ClusterInfo cluster) {
        this.cluster = cluster;
    }

    @GetMapping("/api/v1/cluster")
    Map<String, Object> cluster() {
        ClusterStatus status = cluster.status();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("nodeId", status.nodeId());
        json.put("role", status.role());
        json.put("leaderId", status.leaderId());
        json.put("term", status.term());
        json.put("commitIndex", status.commitIndex());
        json.put("appliedIndex", status.appliedIndex());
        json.put("lastSnapshotIndex", status.lastSnapshotIndex());
        List<Map<String, Object>> peers = new ArrayList<>();
        for (ClusterStatus.Peer peer : status.peers()) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("id", peer.id());
            p.put("address", peer.address());
            p.put("role", peer.role());
            p.put("matchIndex", peer.matchIndex());
            p.put("commitIndex", peer.commitIndex());
            peers.add(p);
        }
        json.put("peers", peers);
        return json;
    }
}
