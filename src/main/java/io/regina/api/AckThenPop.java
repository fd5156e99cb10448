package io.regina.api;

import io.regina.api.dto.AckBatchRequest;
import io.regina.api.dto.AckPopResponse;
import io.regina.api.dto.AckResponseItem;
import io.regina.queue.Command;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code POST /api/v1/ack/pop/queue/{queue}[/partition/{p}]} (routed by {@link HotRoutes}), Regina's
 * one-request worker loop: the acknowledgements of the jobs a worker finished and its next pop travel
 * in one request and one command ({@code Command.AckAndPop}, acks first), so a job costs one round trip
 * and one durable write instead of two of each. The acks are fenced: one naming a lease that no longer
 * holds its message refuses the whole request (409 {@code LEASE_NOT_HELD}), so nothing is acked nor
 * leased. When the pop finds nothing it long-polls like {@code GET /pop} (the acks are applied by then);
 * the answer carries both.
 */
@Component
class AckThenPop {
    private final AckController acks;
    private final PopController pops;

    AckThenPop(AckController acks, PopController pops) {
        this.acks = acks;
        this.pops = pops;
    }

    Mono<AckPopResponse> ackThenPop(String queue, String partition, Map<String, String> query, AckBatchRequest body) {
        List<Command.AckItem> items = AckController.items(body);
        AtomicReference<List<AckResponseItem>> acknowledged = new AtomicReference<>(List.of());
        return pops.popAfter(queue, partition, query, items, acked -> acknowledged.set(acks.answer(acked)))
                .map(popped -> new AckPopResponse(acknowledged.get(), popped.getBody()));
    }
}
