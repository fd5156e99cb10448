package io.regina.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.regina.api.dto.AckBatchRequest;
import io.regina.api.dto.AckResponseItem;
import io.regina.queue.Command;
import io.regina.queue.Result;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * {@code POST /api/v1/ack} and {@code /ack/batch} (routed by {@link HotRoutes}, through {@link NextPops}):
 * one replicated command per request, items in order.
 */
@Component
class AckController {
    private final Broker broker;
    private final Counter acked;

    AckController(Broker broker, MeterRegistry meters) {
        this.broker = broker;
        this.acked = Counter.builder("regina.messages.acked").description("Acknowledgements applied")
                .register(meters);
    }

    /** The acknowledgements of a batch body, checked. */
    static List<Command.AckItem> items(AckBatchRequest body) {
        if (body.acknowledgments() == null) {
            throw ApiException.badRequest("'acknowledgments' is required: an array of {transactionId, partitionId, "
                    + "status?, error?, leaseId?}");
        }
        return AckItems.read(body.acknowledgments(), body.consumerGroup());
    }

    /**
     * Acks {@code items}, with {@code next} (may be null) applied right after them in the same entry, its
     * result handed to {@code nextResult} when submitted ({@link NextPops}).
     */
    Mono<List<AckResponseItem>> submit(List<Command.AckItem> items, Command next,
                                       Consumer<CompletableFuture<Result>> nextResult) {
        if (items.isEmpty()) {
            return Mono.just(List.of());
        }
        Command ack = new Command.Ack(items);
        Mono<Result.Acked> acked = next == null ? broker.submit(ack, Result.Acked.class)
                : broker.submit(() -> {
                    List<CompletableFuture<Result>> both = broker.submitTogether(List.of(ack, next));
                    nextResult.accept(both.get(1));
                    return both.get(0);
                }, Result.Acked.class);
        return acked.map(this::answer);
    }

    /** The answer items of an applied ack, in input order. */
    List<AckResponseItem> answer(Result.Acked result) {
        List<AckResponseItem> answer = new ArrayList<>(result.outcomes().size());
        for (Result.AckOutcome o : result.outcomes()) {
            answer.add(new AckResponseItem(o.index(), o.transactionId(), o.success(), o.error(), o.queue(),
                    o.partition(), o.leaseReleased(), o.dlq()));
            if (o.success()) {
                acked.increment();
            }
        }
        return answer;
    }
}
