package io.regina.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.regina.api.dto.PopResponse;
import io.regina.api.dto.PoppedMessage;
import io.regina.queue.Command;
import io.regina.queue.Result;
import io.regina.queue.SubscriptionMode;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/pop/...}. A pop is a replicated command (it moves cursors and takes a lease);
 * when the state shows nothing deliverable it is not submitted at all, and a long-poll parks here
 * until an applied push wakes it or its timeout passes.
 */
@RestController
class PopController {
    static final String QUEUE_MODE = "__QUEUE_MODE__";
    private static final int MAX_BATCH = 10_000;
    private static final long MAX_TIMEOUT_MS = 10 * 60 * 1000L;

    private final Broker broker;
    private final PopWaiters waiters;
    private final Counter delivered;

    PopController(Broker broker, PopWaiters waiters, MeterRegistry meters) {
        this.broker = broker;
        this.waiters = waiters;
        this.delivered = Counter.builder("regina.messages.popped").description("Messages delivered by pop")
                .register(meters);
    }

    @GetMapping("/api/v1/pop/queue/{queue}")
    Mono<ResponseEntity<PopResponse>> popQueue(@PathVariable String queue, @RequestParam Map<String, String> query) {
        return pop(queue, null, query);
    }

    @GetMapping("/api/v1/pop/queue/{queue}/partition/{partition}")
    Mono<ResponseEntity<PopResponse>> popPartition(@PathVariable String queue, @PathVariable String partition,
                                                   @RequestParam Map<String, String> query) {
        return pop(queue, "Default".equals(partition) ? null : partition, query);
    }

    private Mono<ResponseEntity<PopResponse>> pop(String queue, String partition, Map<String, String> query) {
        int batch = (int) bounded(query, "batch", 1, 1, MAX_BATCH);
        boolean wait = flag(query.get("wait"));
        long timeout = bounded(query, "timeout", 30_000, 0, MAX_TIMEOUT_MS);
        String group = query.getOrDefault("consumerGroup", QUEUE_MODE);
        if (group.isEmpty()) {
            group = QUEUE_MODE;
        }
        SubscriptionMode mode = SubscriptionMode.ALL;
        long from = 0;
        String modeText = query.get("subscriptionMode");
        String fromText = query.get("subscriptionFrom");
        if ("new".equals(modeText) || "new-only".equals(modeText) || "now".equals(fromText)) {
            mode = SubscriptionMode.NEW;
        } else if (fromText != null && !fromText.isEmpty()) {
            mode = SubscriptionMode.FROM;
            from = Times.parse(fromText, "subscriptionFrom");
        }
        boolean autoAck = flag(query.get("autoAck"));
        int partitions = partition == null ? (int) bounded(query, "partitions", 1, 1, 1000) : 1;
        Attempt attempt = new Attempt(queue, partition, group, batch, autoAck, mode, from, partitions);
        Mono<Result.Popped> result = wait
                ? longPoll(attempt, System.nanoTime() + Duration.ofMillis(timeout).toNanos())
                : attempt(attempt);
        return result.map(this::answer);
    }

    private record Attempt(String queue, String partition, String group, int batch, boolean autoAck,
                           SubscriptionMode mode, long from, int partitions) {
        Command.Pop command() {
            return new Command.Pop(queue, partition, group, batch, UuidV7.next(), autoAck, mode, from, partitions);
        }
    }

    private Mono<Result.Popped> attempt(Attempt attempt) {
        if (!broker.read(s -> s.mayDeliver(attempt.queue(), attempt.partition(), attempt.group()))) {
            return Mono.just(Result.Popped.empty(attempt.queue(), attempt.group()));
        }
        return broker.submit(attempt.command(), Result.Popped.class);
    }

    private Mono<Result.Popped> longPoll(Attempt attempt, long deadline) {
        return Mono.defer(() -> {
            PopWaiters.Waiter waiter = waiters.arm(attempt.queue(), attempt.group(), attempt.partition());
            return attempt(attempt).flatMap(popped -> {
                long remaining = deadline - System.nanoTime();
                if (!popped.messages().isEmpty() || remaining <= 0) {
                    waiters.disarm(attempt.queue(), waiter);
                    if (!popped.messages().isEmpty()) {
                        // A wake-up this pop did not need may have been spent on it: hand the turn on.
                        waiters.wake(attempt.queue());
                    }
                    return Mono.just(popped);
                }
                return Mono.fromFuture(waiter.wake(), true)
                        .timeout(Duration.ofNanos(remaining), Mono.empty())
                        .doFinally(signal -> waiters.disarm(attempt.queue(), waiter))
                        .then(Mono.defer(() -> System.nanoTime() >= deadline ? Mono.just(popped)
                                : longPoll(attempt, deadline)));
            });
        });
    }

    private ResponseEntity<PopResponse> answer(Result.Popped popped) {
        if (popped.messages().isEmpty()) {
            return ResponseEntity.noContent().build();
        }
        List<PoppedMessage> messages = new ArrayList<>(popped.messages().size());
        for (Result.Delivery d : popped.messages()) {
            messages.add(new PoppedMessage(d.id(), d.transactionId(), d.traceId(), d.data(), d.producerSub(),
                    Times.iso(d.createdAt()), d.partitionId(), d.partition(), d.leaseId(), d.group(), d.attempts()));
        }
        delivered.increment(messages.size());
        return ResponseEntity.ok(new PopResponse(true, popped.queue(), popped.partition(), popped.partitionId(),
                popped.leaseId(), popped.group(), messages, popped.partitionsClaimed()));
    }

    private static boolean flag(String value) {
        return "true".equalsIgnoreCase(value) || "1".equals(value);
    }

    private static long bounded(Map<String, String> query, String name, long fallback, long min, long max) {
        String text = query.get(name);
        if (text == null || text.isEmpty()) {
            return fallback;
        }
        try {
            long value = Long.parseLong(text);
            if (value < min || value > max) {
                throw ApiException.badRequest("'" + name + "' must be between " + min + " and " + max + ", got " + text);
            }
            return value;
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("'" + name + "' must be a whole number, got '" + text + "'");
        }
    }
}
