package io.regina.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.util.concurrent.EventExecutor;
import io.regina.api.dto.AckResponseItem;
import io.regina.api.dto.PopResponse;
import io.regina.api.dto.PoppedMessage;
import io.regina.queue.AckStatus;
import io.regina.queue.Command;
import io.regina.queue.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Makes the next pop of a worker in a steady loop on one connection in its ack's log entry: when the ack
 * settles every message of the connection's last pop, the pop the worker is about to send goes into the
 * ack's entry, right after it, and when that pop comes it is answered from there at once. A job then waits
 * for one commit (its ack's) instead of two in turn (the ack's, then the next pop's): the two-request worker
 * loop of Queen's clients costs one durable write a job, as {@code POST /ack/pop} does, with no change to the
 * client.
 *
 * <p>It is the worker's own next pop, the same query on the same route, applied a moment sooner: what it
 * leases, and the attempt it counts, are what that pop would have. Only a connection whose last
 * {@link #STEADY_CYCLES} pops each came back within {@code regina.next-pop.quick-return-ms} (10) of the ack
 * before it gets one (a test or a tool that pops now and then never does), and it is held at most
 * {@code regina.next-pop.hold-ms} (100): a pop of another query, the end of the hold, or the connection
 * closing hands its messages back unstarted (an ack {@code retry}, the attempt not counted), so nobody else
 * waits longer than that for them. A broker that dies while it holds one leaves that lease to expire, as it
 * leaves the leases of its workers' jobs.
 *
 * <p>A {@link Slot} is one connection's; only its event loop touches it.
 */
@Component
final class NextPops {
    private static final Logger log = LoggerFactory.getLogger(NextPops.class);

    /** Quick pop-ack cycles a connection completes before its next pops are made in its acks' entries. */
    static final int STEADY_CYCLES = 2;

    private final Broker broker;
    private final PopController pops;
    private final AckController acks;
    private final boolean enabled;
    /** How soon after its ack's answer a worker's next pop must come to count as a steady loop. */
    private final long quickReturnNanos;
    /** How long a next pop waits for the worker's pop before its messages are handed back. */
    private final long holdMs;
    private final Counter taken;
    private final Counter handedBack;

    NextPops(Broker broker, PopController pops, AckController acks, MeterRegistry meters,
             @Value("${regina.next-pop.enabled:true}") boolean enabled,
             @Value("${regina.next-pop.quick-return-ms:10}") long quickReturnMs,
             @Value("${regina.next-pop.hold-ms:100}") long holdMs) {
        this.broker = broker;
        this.pops = pops;
        this.acks = acks;
        this.enabled = enabled;
        this.quickReturnNanos = TimeUnit.MILLISECONDS.toNanos(quickReturnMs);
        this.holdMs = holdMs;
        this.taken = Counter.builder("regina.pops.next").tag("outcome", "taken")
                .description("Next pops made in an ack's entry, by what became of them").register(meters);
        this.handedBack = Counter.builder("regina.pops.next").tag("outcome", "handed_back")
                .description("Next pops made in an ack's entry, by what became of them").register(meters);
    }

    /**
     * A pop's route and query: a worker's next pop is made only with exactly its last one's. Compared twice a
     * pop; the record's generated {@code equals} ran through method handles (1.2% of the event loop).
     */
    record Shape(String queue, String partition, Map<String, String> query) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Shape that && queue.equals(that.queue) && Objects.equals(partition, that.partition)
                    && query.equals(that.query);
        }

        @Override
        public int hashCode() {
            return (queue.hashCode() * 31 + Objects.hashCode(partition)) * 31 + query.hashCode();
        }
    }

    /** The connection's slot, or null when next pops are off. */
    Slot slot(EventExecutor loop) {
        return enabled ? new Slot(loop) : null;
    }

    /**
     * A pop: answered from the next pop for it when there is one of this shape with messages, else by
     * {@code fresh}. {@code slot} null (a request Spring serves): always {@code fresh}.
     */
    Mono<ResponseEntity<PopResponse>> pop(Slot slot, Shape shape, Supplier<Mono<ResponseEntity<PopResponse>>> fresh) {
        if (slot == null) {
            return fresh.get();
        }
        boolean quick = slot.ackedAt != 0 && shape.equals(slot.lastShape)
                && System.nanoTime() - slot.ackedAt < quickReturnNanos;
        slot.cycles = quick ? slot.cycles + 1 : 0;
        slot.forgetLastPop();
        CompletableFuture<Result> next = slot.held;
        // the hold's bound is checked here too: its timer may run late (a long pause of this process)
        boolean matches = next != null && shape.equals(slot.heldShape)
                && System.nanoTime() - slot.heldAt <= TimeUnit.MILLISECONDS.toNanos(holdMs);
        if (next != null) {
            slot.release();
            if (!matches) {
                handBack(slot, next);
            }
        }
        // a next pop that failed or found nothing leaves the worker's pop to look for itself
        Mono<ResponseEntity<PopResponse>> answer = matches
                ? onLoop(slot, next).onErrorResume(failed -> Mono.empty())
                        .<ResponseEntity<PopResponse>>handle((result, sink) -> {
                            Result.Popped popped = popped(result);
                            if (popped != null && !popped.messages().isEmpty()) {
                                taken.increment();
                                sink.next(pops.answer(popped));
                            }
                        })
                        .switchIfEmpty(Mono.defer(fresh))
                : fresh.get();
        return answer.doOnNext(response -> slot.popped(shape, response));
    }

    /**
     * An ack of {@code items}; when they settle every message of the connection's last pop in a steady loop,
     * that pop is made again in the same entry and held for the worker's next request.
     */
    Mono<List<AckResponseItem>> ack(Slot slot, List<Command.AckItem> items) {
        if (slot == null) {
            return acks.submit(items, null, null);
        }
        Shape shape = slot.settledBy(items) ? slot.lastShape : null;
        if (shape == null) {
            slot.forgetLastPop();
            slot.cycles = 0;
            return acks.submit(items, null, null);
        }
        Command next = slot.cycles >= STEADY_CYCLES && slot.held == null && !slot.closed
                ? pops.nextPop(shape.queue(), shape.partition(), shape.query(), partitionIds(items)) : null;
        return acks.submit(items, next, pending -> slot.hold(shape, pending, this))
                .doOnNext(answer -> slot.ackedAt = System.nanoTime());
    }

    private static Set<String> partitionIds(List<Command.AckItem> items) {
        Set<String> ids = new HashSet<>();
        for (Command.AckItem item : items) {
            ids.add(item.partitionId());
        }
        return ids;
    }

    /** The connection closed: what it holds goes back. */
    void close(Slot slot) {
        if (slot == null) {
            return;
        }
        slot.closed = true;
        CompletableFuture<Result> next = slot.held;
        if (next != null) {
            slot.release();
            handBack(slot, next);
        }
    }

    /** Once the next pop is applied, its messages go back to their queue unstarted. */
    private void handBack(Slot slot, CompletableFuture<Result> next) {
        next.whenCompleteAsync((result, error) -> {
            Result.Popped popped = error == null ? popped(result) : null;
            if (popped == null || popped.messages().isEmpty()) {
                return;
            }
            List<Command.AckItem> items = new ArrayList<>(popped.messages().size());
            for (Result.Delivery d : popped.messages()) {
                items.add(new Command.AckItem(d.transactionId(), d.partitionId(), AckStatus.RETRY, null, d.group(),
                        d.leaseId(), 0));
            }
            handedBack.increment();
            broker.submit(new Command.Ack(items), Result.Acked.class).subscribe(acked -> { }, failed ->
                    log.debug("A next pop was not handed back; its lease will expire", failed));
        }, slot.loop);
    }

    /** The future's outcome on the connection's event loop. */
    private static Mono<Result> onLoop(Slot slot, CompletableFuture<Result> future) {
        return Mono.fromFuture(future.isDone() ? future : future.whenCompleteAsync((result, error) -> { }, slot.loop));
    }

    private static Result.Popped popped(Result result) {
        if (result instanceof Result.Popped popped) {
            return popped;
        }
        return result instanceof Result.AckedAndPopped both ? both.popped() : null;
    }

    /** One connection's loop: its last pop until an ack settles it, and the next pop it holds. */
    static final class Slot {
        private final EventExecutor loop;
        private Shape lastShape;
        private List<PoppedMessage> lastMessages;
        /** Quick pop-ack cycles in a row, counted when each next pop comes. */
        private int cycles;
        /** When the ack that settled the last pop was answered (System.nanoTime), 0 before. */
        private long ackedAt;
        private Shape heldShape;
        private CompletableFuture<Result> held;
        /** When {@link #held} was submitted (System.nanoTime). */
        private long heldAt;
        private ScheduledFuture<?> holdEnds;
        private boolean closed;

        Slot(EventExecutor loop) {
            this.loop = loop;
        }

        /** A pop was answered here: a 200 with messages starts a cycle, anything else ends the loop. */
        private void popped(Shape shape, ResponseEntity<PopResponse> response) {
            if (!loop.inEventLoop()) {
                loop.execute(() -> popped(shape, response));
                return;
            }
            PopResponse body = response.getBody();
            if (body == null || body.messages() == null || body.messages().isEmpty()) {
                cycles = 0;
                return;
            }
            lastShape = shape;
            lastMessages = body.messages();
            ackedAt = 0;
        }

        /** True when {@code items} settle exactly the last pop's messages, none handed back unstarted. */
        private boolean settledBy(List<Command.AckItem> items) {
            if (lastShape == null || items.size() != lastMessages.size()) {
                return false;
            }
            for (Command.AckItem item : items) {
                if (item.status() == AckStatus.RETRY) {
                    return false; // a worker that hands jobs back is stopping
                }
            }
            if (items.size() == 1) { // a worker popping one job at a time: no sets to build
                Command.AckItem item = items.get(0);
                PoppedMessage message = lastMessages.get(0);
                return Objects.equals(item.transactionId(), message.transactionId())
                        && Objects.equals(item.partitionId(), message.partitionId());
            }
            Set<String> acked = new HashSet<>();
            for (Command.AckItem item : items) {
                acked.add(key(item.partitionId(), item.transactionId()));
            }
            Set<String> delivered = new HashSet<>();
            for (PoppedMessage message : lastMessages) {
                delivered.add(key(message.partitionId(), message.transactionId()));
            }
            return acked.equals(delivered);
        }

        private void forgetLastPop() {
            lastShape = null;
            lastMessages = null;
        }

        private void hold(Shape shape, CompletableFuture<Result> pending, NextPops owner) {
            heldShape = shape;
            held = pending;
            heldAt = System.nanoTime();
            holdEnds = loop.schedule(() -> {
                if (held == pending) {
                    release();
                    owner.handBack(this, pending);
                }
            }, owner.holdMs, TimeUnit.MILLISECONDS);
        }

        private void release() {
            held = null;
            heldShape = null;
            if (holdEnds != null) {
                holdEnds.cancel(false);
                holdEnds = null;
            }
        }

        private static String key(String partitionId, String transactionId) {
            return partitionId + '\u0000' + transactionId;
        }
    }
}
