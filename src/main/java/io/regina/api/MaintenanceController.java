package io.regina.api;

import io.regina.queue.Command;
import io.regina.queue.Result;
import io.regina.queue.Views;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.Map;

/** Maintenance switches: pushes are buffered while maintenance is on; pops answer 204 while pop maintenance is. */
@RestController
class MaintenanceController {
    private final Broker broker;

    MaintenanceController(Broker broker) {
        this.broker = broker;
    }

    @GetMapping({"/api/v1/system/maintenance", "/api/v1/system/maintenance/pop"})
    Map<String, Object> state() {
        Views.Maintenance m = broker.read(s -> s.maintenance());
        return json(m.maintenanceMode(), m.popMaintenanceMode(), m.bufferedMessages());
    }

    @PostMapping("/api/v1/system/maintenance")
    Mono<Map<String, Object>> push(@RequestBody(required = false) JsonNode body) {
        return set(false, body);
    }

    @PostMapping("/api/v1/system/maintenance/pop")
    Mono<Map<String, Object>> pop(@RequestBody(required = false) JsonNode body) {
        return set(true, body);
    }

    private Mono<Map<String, Object>> set(boolean pop, JsonNode body) {
        JsonFields.object(body, "maintenance");
        JsonNode enabled = body.get("enabled");
        if (enabled == null || !enabled.isBoolean()) {
            throw ApiException.badRequest("'enabled' is required: true or false");
        }
        return broker.submit(new Command.SetMaintenance(pop, enabled.booleanValue()), Result.Maintenance.class)
                .map(m -> json(m.maintenanceMode(), m.popMaintenanceMode(), m.bufferedMessages()));
    }

    private static Map<String, Object> json(boolean maintenance, boolean pop, int buffered) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("maintenanceMode", maintenance);
        json.put("popMaintenanceMode", pop);
        json.put("bufferedMessages", buffered);
        json.put("bufferHealthy", true);
        return json;
    }
}
