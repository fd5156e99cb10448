package io.regina.api;

import io.regina.api.dto.WatchResponse;
import io.regina.queue.Views;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/watch/queue/{queue}?consumerGroup=&partition=&timeout=}: a read-only long-poll that
 * answers as soon as the group has deliverable work on the queue (in one of the named partitions, when
 * given), without leasing anything: a supervisor scales up on it the moment a burst arrives. It parks in
 * {@link PopWaiters} as a watching waiter, woken on the apply thread like a pop but taking no pop's turn.
 */
@RestController
class WatchController {
    private final Broker broker;
    private final PopWaiters waiters;

    WatchController(Broker broker, PopWaiters waiters) {
        this.broker = broker;
        this.waiters = waiters;
    }

    @GetMapping("/api/v1/watch/queue/{queue}")
    Mono<WatchResponse> watch(@PathVariable String queue, @RequestParam Map<String, String> query) {
        String given = query.get("consumerGroup");
        String group = given == null || given.isEmpty() ? PopController.QUEUE_MODE : given;
        String names = query.get("partition");
        List<String> partitions = names == null || names.isBlank() ? List.of()
                : Arrays.stream(names.split(",")).map(String::trim).filter(name -> !name.isEmpty()).toList();
        long timeout = PopController.bounded(query, "timeout", 30_000, 0, PopController.MAX_TIMEOUT_MS);
        return watch(queue, group, partitions, System.nanoTime() + Duration.ofMillis(timeout).toNanos());
    }

    /** Arms, looks, and waits for a wake-up until the look finds work or the deadline passes. */
    private Mono<WatchResponse> watch(String queue, String group, List<String> partitions, long deadline) {
        return Mono.defer(() -> {
            PopWaiters.Waiter waiter = waiters.armWatch(queue, group);
            boolean deliverable = broker.read(s -> s.hasDeliverable(queue, group, partitions));
            long remaining = deadline - System.nanoTime();
            if (deliverable || remaining <= 0) {
                waiters.disarm(queue, waiter);
                return Mono.just(answer(queue, group, deliverable));
            }
            return Mono.fromFuture(waiter.wake(), true)
                    .timeout(Duration.ofNanos(remaining), Mono.empty())
                    .doFinally(signal -> waiters.disarm(queue, waiter))
                    .then(Mono.defer(() -> watch(queue, group, partitions, deadline)));
        });
    }

    private WatchResponse answer(String queue, String group, boolean deliverable) {
        Views.Depth depth = broker.read(s -> s.depth(queue, group));
        return depth == null ? new WatchResponse(queue, group, deliverable, 0, 0, 0)
                : new WatchResponse(queue, group, deliverable, depth.pending(), depth.reserved(), depth.delayed());
    }
}
