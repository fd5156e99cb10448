package io.regina.api;

import io.regina.api.dto.LeaseExtendRequest;
import io.regina.api.dto.LeaseExtendResponseItem;
import io.regina.queue.Command;
import io.regina.queue.Result;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.util.List;

/** {@code POST /api/v1/lease/{leaseId}/extend}: renew a lease on every partition it holds. */
@RestController
class LeaseController {
    private final Broker broker;

    LeaseController(Broker broker) {
        this.broker = broker;
    }

    @PostMapping("/api/v1/lease/{leaseId}/extend")
    Mono<List<LeaseExtendResponseItem>> extend(@PathVariable String leaseId,
                                               @JsonBody(value = "lease", optional = true)
                                               LeaseExtendRequest body) {
        int seconds = FieldChecks.within("seconds", body == null ? null : body.seconds(), 60, 1, 24 * 3600);
        return broker.submit(new Command.ExtendLease(leaseId, seconds), Result.LeaseExtended.class)
                .map(e -> List.of(new LeaseExtendResponseItem(0, e.leaseId(), e.success(), e.error(),
                        e.success() ? Times.iso(e.expiresAt()) : null)));
    }
}
