package io.regina.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.regina.api.dto.PushRequest;
import io.regina.api.dto.PushResponseItem;
import io.regina.queue.Command;
import io.regina.queue.Result;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /api/v1/push} (routed by {@link HotRoutes}): one replicated command per request, so a
 * request's messages appear together. Long-polls parked on this node for these messages ride in the
 * same entry ({@link PopWaiters#submitServing}).
 */
@Component
class PushController {
    private final Broker broker;
    private final PopWaiters waiters;
    private final MemoryWatermark watermark;
    private final DiskReserve disk;
    private final ProducerStamp stamp;
    private final Counter pushed;

    PushController(Broker broker, PopWaiters waiters, MemoryWatermark watermark, DiskReserve disk,
            ProducerStamp stamp, MeterRegistry meters) {
        this.broker = broker;
        this.waiters = waiters;
        this.watermark = watermark;
        this.disk = disk;
        this.stamp = stamp;
        this.pushed = Counter.builder("regina.messages.pushed").description("Messages accepted by push")
                .register(meters);
    }

    /** The outcomes, in input order. */
    Mono<List<PushResponseItem>> push(PushRequest body) {
        if (body.items() == null) {
            throw ApiException.badRequest("'items' is required: an array of {queue, partition?, payload?, "
                    + "transactionId?, traceId?}");
        }
        return stamp.apply(producerSub -> push(body.items(), producerSub));
    }

    private Mono<List<PushResponseItem>> push(List<PushRequest.Item> items, String producerSub) {
        List<Command.PushItem> parsed;
        try {
            parsed = PushItems.read(items, producerSub);
        } catch (OutOfMemoryError e) {
            throw MemoryWatermark.outOfHeap();
        }
        if (parsed.isEmpty()) {
            return Mono.just(List.of());
        }
        watermark.checkPush();
        disk.checkPush();
        Command.Push push = new Command.Push(parsed);
        return broker.submit(() -> waiters.submitServing(push), Result.Pushed.class).map(result -> {
            List<PushResponseItem> answer = new ArrayList<>(result.outcomes().size());
            for (Result.PushOutcome outcome : result.outcomes()) {
                answer.add(item(outcome));
                if (outcome.status() == Result.PushStatus.QUEUED) {
                    pushed.increment();
                }
            }
            return answer;
        });
    }

    private static PushResponseItem item(Result.PushOutcome o) {
        return switch (o.status()) {
            case QUEUED -> PushResponseItem.queued(o.index(), o.transactionId(), o.messageId(), o.partitionId(),
                    o.traceId(), o.queue());
            case DUPLICATE -> PushResponseItem.duplicate(o.index(), o.transactionId(), o.messageId(), o.queue());
            case BUFFERED -> PushResponseItem.buffered(o.index(), o.transactionId(), o.messageId(), o.traceId(),
                    o.queue());
        };
    }
}
