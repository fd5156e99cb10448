package io.regina.api;

import io.regina.api.dto.SystemBodies;
import io.regina.queue.ClusterInfo;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;


/**
 * {@code GET /health}: the shape Queen's clients check. Unhealthy (503, as Queen's when its database is
 * gone) once this node's replication stopped by itself: it would time every write out until restarted.
 */
@RestController
class HealthController {
    private final ClusterInfo cluster;
    private final String version;
    private final SystemBodies.Health healthy;

    HealthController(ClusterInfo cluster, @Value("${regina.version:0.1.0}") String version) {
        this.cluster = cluster;
        this.version = version;
        this.healthy = new SystemBodies.Health("healthy", "connected", "regina", version, null);
    }

    @GetMapping("/health")
    ResponseEntity<SystemBodies.Health> health() {
        String stopped = cluster.stopped();
        if (stopped == null) {
            return ResponseEntity.ok(healthy);
        }
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .body(new SystemBodies.Health("unhealthy", "disconnected", "regina", version, stopped));
    }
}
