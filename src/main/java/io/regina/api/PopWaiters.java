package io.regina.api;

import io.regina.queue.CommandBus;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Long-polling pops parked on this node, by queue, oldest first. When an applied entry may have made
 * a queue deliverable, only as many waiters wake as there are ready partitions for their group, so
 * thirty-two workers parked on one busy partition do not all submit a pop for one message.
 */
@Component
class PopWaiters {

    /**
     * One parked pop; {@code partition} null for a wildcard pop. It is woken on {@code resume}, the event
     * loop it parked on, so its next look runs there. A {@code watching} waiter takes nothing when it wakes
     * (a read-only watch), so it is woken whenever its group may be served and uses up no pop's turn.
     */
    record Waiter(String group, String partition, boolean watching, CompletableFuture<Void> wake,
                  Executor resume) {
    }

    private final CommandBus bus;
    private final Map<String, Queue<Waiter>> waiting = new ConcurrentHashMap<>();

    PopWaiters(CommandBus bus) {
        this.bus = bus;
        bus.onDeliverable(this::wake);
    }

    /** Parks a pop; arm before looking, so a push between look and wait is not missed. */
    Waiter arm(String queue, String group, String partition) {
        return park(queue, new Waiter(group, partition, false, new CompletableFuture<>(), EventLoops.current()));
    }

    /** Parks a read-only watch of the group's wildcard pops; arm before looking, as for a pop. */
    Waiter armWatch(String queue, String group) {
        return park(queue, new Waiter(group, null, true, new CompletableFuture<>(), EventLoops.current()));
    }

    private Waiter park(String queue, Waiter waiter) {
        waiting.computeIfAbsent(queue, q -> new ConcurrentLinkedQueue<>()).add(waiter);
        return waiter;
    }

    void disarm(String queue, Waiter waiter) {
        Queue<Waiter> parked = waiting.get(queue);
        if (parked != null) {
            parked.remove(waiter);
        }
    }

    int parked() {
        return waiting.values().stream().mapToInt(Queue::size).sum();
    }

    /**
     * Wakes the oldest waiters that may be served now. Called on the apply thread after an entry and
     * by a pop that got messages (to pass the turn on); each wake-up runs on its waiter's event loop.
     */
    void wake(String queue) {
        Queue<Waiter> parked = waiting.get(queue);
        if (parked == null || parked.isEmpty()) {
            return;
        }
        List<Waiter> chosen = bus.read(state -> {
            Map<String, Integer> budget = new HashMap<>();
            List<Waiter> picked = new ArrayList<>();
            for (Waiter waiter : parked) {
                if (waiter.watching()) {
                    if (state.readyPartitions(queue, waiter.group()) > 0) {
                        picked.add(waiter);
                    }
                    continue;
                }
                if (waiter.partition() != null) {
                    if (state.mayDeliver(queue, waiter.partition(), waiter.group())) {
                        picked.add(waiter);
                    }
                    continue;
                }
                int left = budget.computeIfAbsent(waiter.group(), g -> state.readyPartitions(queue, g));
                if (left > 0) {
                    picked.add(waiter);
                    budget.put(waiter.group(), left == Integer.MAX_VALUE ? left : left - 1);
                }
            }
            return picked;
        });
        if (!chosen.isEmpty()) {
            parked.removeAll(chosen);
            for (Waiter waiter : chosen) {
                try {
                    waiter.resume().execute(() -> waiter.wake().complete(null));
                } catch (RejectedExecutionException shuttingDown) {
                    waiter.wake().complete(null);
                }
            }
        }
    }
}
