package io.regina.api;

import io.regina.api.dto.SystemBodies;
import io.regina.queue.Command;
import io.regina.queue.Result;
import io.regina.queue.Views;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;


/** Maintenance switches: pushes are buffered while maintenance is on; pops answer 204 while pop maintenance is. */
@RestController
class MaintenanceController {
    private final Broker broker;

    MaintenanceController(Broker broker) {
        this.broker = broker;
    }

    @GetMapping({"/api/v1/system/maintenance", "/api/v1/system/maintenance/pop"})
    SystemBodies.Maintenance state() {
        Views.Maintenance m = broker.read(s -> s.maintenance());
        return answer(m.maintenanceMode(), m.popMaintenanceMode(), m.bufferedMessages());
    }

    @PostMapping("/api/v1/system/maintenance")
    Mono<SystemBodies.Maintenance> push(@JsonBody("maintenance") SystemBodies.MaintenanceRequest body) {
        return set(false, body);
    }

    @PostMapping("/api/v1/system/maintenance/pop")
    Mono<SystemBodies.Maintenance> pop(@JsonBody("maintenance") SystemBodies.MaintenanceRequest body) {
        return set(true, body);
    }

    private Mono<SystemBodies.Maintenance> set(boolean pop, SystemBodies.MaintenanceRequest body) {
        if (body.enabled() == null || !body.enabled().isBoolean()) {
            throw ApiException.badRequest("'enabled' is required: true or false");
        }
        return broker.submit(new Command.SetMaintenance(pop, body.enabled().booleanValue()), Result.Maintenance.class)
                .map(m -> answer(m.maintenanceMode(), m.popMaintenanceMode(), m.bufferedMessages()));
    }

    private static SystemBodies.Maintenance answer(boolean maintenance, boolean pop, int buffered) {
        return new SystemBodies.Maintenance(maintenance, pop, buffered, true);
    }
}
