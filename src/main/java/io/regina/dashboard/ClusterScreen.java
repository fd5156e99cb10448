package io.regina.dashboard;

import io.regina.queue.ClusterInfo;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/** Cluster: the Raft group as this node sees it, every peer with its role and indexes. */
@Controller
class ClusterScreen {
    private final ClusterInfo cluster;

    ClusterScreen(ClusterInfo cluster) {
        this.cluster = cluster;
    }

    @GetMapping(DashboardRoutes.CLUSTER)
    String cluster(Model model) {
        model.addAttribute("screen", "cluster");
        model.addAttribute("cluster", cluster.status());
        return "cluster/status";
    }
}
