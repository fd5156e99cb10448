package io.regina.api;

import io.regina.api.dto.SystemBodies;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;


/** {@code GET /health}: the shape Queen's clients check. */
@RestController
class HealthController {
    private final String version;

    HealthController(@Value("${regina.version:0.1.0}") String version) {
        this.version = version;
    }

    @GetMapping("/health")
    SystemBodies.Health health() {
        return new SystemBodies.Health("healthy", "connected", "regina", version);
    }
}
