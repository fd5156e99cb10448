package io.regina.api;

import io.regina.queue.CommandBus;
import org.springframework.stereotype.Component;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * Long-polling pops parked on this node, by queue. The apply of anything that may make a queue
 * deliverable wakes that queue's waiters; nothing polls.
 */
@Component
class PopWaiters {
    private final Map<String, Set<CompletableFuture<Void>>> waiting = new ConcurrentHashMap<>();
    private final Executor wakeExecutor = ForkJoinPool.commonPool();

    PopWaiters(CommandBus bus) {
        bus.onDeliverable(this::wake);
    }

    /** Arms a wake-up for the queue; arm before looking, so a push between look and wait is not missed. */
    CompletableFuture<Void> arm(String queue) {
        CompletableFuture<Void> wake = new CompletableFuture<>();
        waiting.computeIfAbsent(queue, q -> ConcurrentHashMap.newKeySet()).add(wake);
        return wake;
    }

    void disarm(String queue, CompletableFuture<Void> wake) {
        waiting.computeIfPresent(queue, (q, set) -> {
            set.remove(wake);
            return set.isEmpty() ? null : set;
        });
    }

    int parked() {
        return waiting.values().stream().mapToInt(Set::size).sum();
    }

    /** Called on the apply thread: hand the wake-ups to another thread and return at once. */
    private void wake(String queue) {
        Set<CompletableFuture<Void>> woken = waiting.remove(queue);
        if (woken != null) {
            wakeExecutor.execute(() -> woken.forEach(wake -> wake.complete(null)));
        }
    }
}
