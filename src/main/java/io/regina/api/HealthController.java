package io.regina.api;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code GET /health}: the shape Queen's clients check. */
@RestController
class HealthController {
    private final String version;

    HealthController(@Value("${regina.version:0.1.0}") String version) {
        this.version = version;
    }

    @GetMapping("/health")
    Map<String, Object> health() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("status", "healthy");
        json.put("database", "connected");
        json.put("server", "regina");
        json.put("version", version);
        return json;
    }
}
