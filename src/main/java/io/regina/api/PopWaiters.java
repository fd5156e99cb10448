package io.regina.api;

import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * Long-polling pops parked on this node, by queue, oldest first. When an applied entry may have made
 * a queue deliverable, only as many waiters wake as there are ready partitions for their group, so
 * thirty-two workers parked on one busy partition do not all submit a pop for one message.
 *
 * <p>A push to a queue with pops parked here does better than wake them after it is applied: it takes
 * them before it is submitted and their pops travel in the same log entry, right after it
 * ({@link #submitServing}). The worker gets its message when the push is durable, one entry and one
 * fsync sooner, and the job costs an entry less. Each waiter is taken once, by a push, a wake-up or its
 * own timeout, whichever comes first ({@link Waiter#take}).
 */
@Component
class PopWaiters {

    /**
     * One parked pop; {@code partition} null for a wildcard pop. It is woken on {@code resume}, the event
     * loop it parked on, so its next look runs there. A {@code watching} waiter takes nothing when it wakes
     * (a read-only watch), so it is woken whenever its group may be served and uses up no pop's turn.
     * {@code wake} completes with null for a plain wake-up, or with the result of the pop a push
     * submitted for it.
     */
    static final class Waiter {
        private final String group;
        private final String partition;
        private final boolean watching;
        private final CompletableFuture<Result> wake = new CompletableFuture<>();
        private final Executor resume;
        private final AtomicBoolean taken = new AtomicBoolean();
        /** The pop a push may submit for it; set once its own look found nothing. */
        private volatile Supplier<Command> pop;

        Waiter(String group, String partition, boolean watching, Executor resume) {
            this.group = group;
            this.partition = partition;
            this.watching = watching;
            this.resume = resume;
        }

        CompletableFuture<Result> wake() {
            return wake;
        }

        /**
         * Lets a push submit {@code pop} for this waiter. Only once the waiter's own look came back empty:
         * before that, a pop submitted for it would race its own and one of the two answers would be lost.
         */
        void servable(Supplier<Command> pop) {
            this.pop = pop;
        }

        /**
         * True for the one caller that takes this waiter: a push serving it, a wake-up, or its own
         * deadline. A waiter whose deadline finds it taken waits for its wake, which is on its way.
         */
        boolean take() {
            return taken.compareAndSet(false, true);
        }

        private void complete(Result served) {
            try {
                resume.execute(() -> wake.complete(served));
            } catch (RejectedExecutionException shuttingDown) {
                wake.complete(served);
            }
        }
    }

    private final CommandBus bus;
    private final Map<String, Queue<Waiter>> waiting = new ConcurrentHashMap<>();

    PopWaiters(CommandBus bus) {
        this.bus = bus;
        bus.onDeliverable(this::wake);
    }

    /** Parks a pop; arm before looking, so a push between look and wait is not missed. */
    Waiter arm(String queue, String group, String partition) {
        return park(queue, new Waiter(group, partition, false, EventLoops.current()));
    }

    /** Parks a read-only watch of the group's wildcard pops; arm before looking, as for a pop. */
    Waiter armWatch(String queue, String group) {
        return park(queue, new Waiter(group, null, true, EventLoops.current()));
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
     * Takes the parked pops a push of {@code items} will serve, oldest first: per queue and group, one
     * per message that is due at once, a wildcard pop or a pop of that message's partition. Each group
     * reads every message, so each group gets its own. A taken waiter must be completed.
     */
    private List<Waiter> takeFor(List<Command.PushItem> items) {
        if (!anyParked(items)) {
            return List.of(); // the usual push: nobody waits, so nothing is counted
        }
        Map<String, Map<String, Integer>> due = dueByQueue(items);
        if (due.isEmpty()) {
            return List.of();
        }
        List<Waiter> taken = new ArrayList<>();
        due.forEach((queue, byPartition) -> {
            Queue<Waiter> parked = waiting.get(queue);
            if (parked == null || parked.isEmpty()) {
                return;
            }
            int messages = byPartition.values().stream().mapToInt(Integer::intValue).sum();
            Map<String, Integer> budget = new HashMap<>();
            for (Waiter waiter : parked) {
                if (waiter.watching || waiter.pop == null || waiter.taken.get()) {
                    continue;
                }
                Integer ofPartition = waiter.partition == null ? null : byPartition.get(waiter.partition);
                if (waiter.partition != null && ofPartition == null) {
                    continue;
                }
                // a partition's pops share its messages with the group's wildcard pops
                String key = waiter.group + (waiter.partition == null ? "" : "\u0000" + waiter.partition);
                int left = budget.computeIfAbsent(key, k -> ofPartition == null ? messages : ofPartition);
                int groupLeft = budget.computeIfAbsent(waiter.group, k -> messages);
                if (left > 0 && groupLeft > 0 && waiter.take()) {
                    parked.remove(waiter);
                    taken.add(waiter);
                    budget.put(key, left - 1);
                    if (waiter.partition != null) {
                        budget.put(waiter.group, groupLeft - 1);
                    }
                }
            }
        });
        return taken;
    }

    private boolean anyParked(List<Command.PushItem> items) {
        for (Command.PushItem item : items) {
            Queue<Waiter> parked = waiting.get(item.queue());
            if (parked != null && !parked.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Messages due at once, by queue and partition as named in the push ("Default" when none). */
    private static Map<String, Map<String, Integer>> dueByQueue(List<Command.PushItem> items) {
        Map<String, Map<String, Integer>> due = new HashMap<>();
        for (Command.PushItem item : items) {
            if (item.delayMs() > 0 || item.availableAt() > 0) {
                continue;
            }
            String partition = item.partition() == null ? "Default" : item.partition();
            due.computeIfAbsent(item.queue(), q -> new HashMap<>()).merge(partition, 1, Integer::sum);
        }
        return due;
    }

    /**
     * Submits a push with the pops it serves right behind it, all in one entry ({@link
     * CommandBus#submitTogether}); each served waiter gets its pop's answer. Completes with the push's.
     */
    CompletableFuture<Result> submitServing(Command.Push push) {
        List<Waiter> served = takeFor(push.items());
        if (served.isEmpty()) {
            return bus.submit(push);
        }
        List<CompletableFuture<Result>> results;
        try {
            List<Command> commands = new ArrayList<>(1 + served.size());
            commands.add(push);
            for (Waiter waiter : served) {
                commands.add(waiter.pop.get());
            }
            results = bus.submitTogether(commands);
        } catch (RuntimeException e) {
            served.forEach(waiter -> waiter.complete(null)); // not served: they look again
            throw e;
        }
        for (int i = 0; i < served.size(); i++) {
            Waiter waiter = served.get(i);
            results.get(i + 1).whenComplete((result, error) -> waiter.complete(error == null ? result : null));
        }
        return results.get(0);
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
                if (waiter.taken.get()) {
                    continue;
                }
                if (waiter.watching) {
                    if (state.readyPartitions(queue, waiter.group) > 0) {
                        picked.add(waiter);
                    }
                    continue;
                }
                if (waiter.partition != null) {
                    if (state.mayDeliver(queue, waiter.partition, waiter.group)) {
                        picked.add(waiter);
                    }
                    continue;
                }
                int left = budget.computeIfAbsent(waiter.group, g -> state.readyPartitions(queue, g));
                if (left > 0) {
                    picked.add(waiter);
                    budget.put(waiter.group, left == Integer.MAX_VALUE ? left : left - 1);
                }
            }
            return picked;
        });
        if (!chosen.isEmpty()) {
            parked.removeAll(chosen);
            for (Waiter waiter : chosen) {
                if (waiter.take()) {
                    waiter.complete(null);
                }
            }
        }
    }
}
