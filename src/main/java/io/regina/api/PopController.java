package io.regina.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.regina.api.dto.PopResponse;
import io.regina.api.dto.PoppedMessage;
import io.regina.queue.Command;
import io.regina.queue.Result;
import io.regina.queue.SubscriptionMode;
import io.regina.queue.Views;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code GET /api/v1/pop/...}: the namespace/task pop mapped here, the pops of one queue routed by
 * {@link HotRoutes}. A pop is a replicated command (it moves cursors and takes a lease); when the state
 * shows nothing deliverable it is not submitted at all, and a long-poll parks here until an applied
 * push wakes it or its timeout passes.
 */
@RestController
class PopController {
    static final String QUEUE_MODE = "__QUEUE_MODE__";
    private static final int MAX_BATCH = 10_000;
    static final long MAX_TIMEOUT_MS = 10 * 60 * 1000L;
    /** The longest {@code leaseSeconds} a pop may ask for: a day, as for a lease extension. */
    private static final int MAX_LEASE_SECONDS = 24 * 3600;
    /** How often a namespace/task long-poll looks again for queues created while it waits. */
    private static final Duration RECHECK = Duration.ofSeconds(1);

    private final Broker broker;
    private final PopWaiters waiters;
    private final Counter delivered;

    PopController(Broker broker, PopWaiters waiters, MeterRegistry meters) {
        this.broker = broker;
        this.waiters = waiters;
        this.delivered = Counter.builder("regina.messages.popped").description("Messages delivered by pop")
                .register(meters);
    }

    /** {@code GET /api/v1/pop/queue/{queue}}, routed by {@link HotRoutes}. */
    Mono<ResponseEntity<PopResponse>> popQueue(String queue, Map<String, String> query) {
        return pop(queue, null, query);
    }

    /** {@code GET /api/v1/pop/queue/{queue}/partition/{partition}}, routed by {@link HotRoutes}. */
    Mono<ResponseEntity<PopResponse>> popPartition(String queue, String partition, Map<String, String> query) {
        return pop(queue, "Default".equals(partition) ? null : partition, query);
    }

    /**
     * {@code GET /api/v1/pop?namespace=&task=}: Queen's clients pop "any queue of this namespace and/or
     * task" this way ({@code queue().namespace(n).consume(...)}, no queue name). It is not one command:
     * the matching queues are tried highest {@code priority} first, each with one ordinary wildcard pop
     * for what the batch still lacks, so every message keeps its own queue's lease, partitionId and
     * retry counter and is acked as usual. The top-level fields describe the first queue that delivered.
     */
    @GetMapping("/api/v1/pop")
    Mono<ResponseEntity<PopResponse>> popMatching(@RequestParam Map<String, String> query) {
        String namespace = blankToNull(query.get("namespace"));
        String task = blankToNull(query.get("task"));
        if (namespace == null && task == null) {
            throw ApiException.badRequest("Give 'namespace' and/or 'task', or pop one queue with "
                    + "/api/v1/pop/queue/{queue}");
        }
        Options options = Options.read(query);
        Supplier<List<String>> queues = () -> broker.read(s -> matching(s.queues(), namespace, task));
        Supplier<Mono<Result.Popped>> look = () -> collect(queues.get(), 0, options, new ArrayList<>(), null);
        // A queue of the namespace created while this poll waits has no waiter armed: look again at least
        // every RECHECK so it is found without a push to one of the queues already watched.
        Mono<Result.Popped> result = options.longPoll()
                ? longPoll(queues, options.group(), null, look, null,
                        System.nanoTime() + Duration.ofMillis(options.timeout()).toNanos(), RECHECK)
                : look.get();
        return result.map(this::answer);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    /** Queue names of that namespace and task (null matches any), highest priority first, then by name. */
    private static List<String> matching(List<Views.QueueSummary> all, String namespace, String task) {
        return all.stream()
                .filter(q -> (namespace == null || namespace.equals(q.namespace()))
                        && (task == null || task.equals(q.task())))
                .sorted(Comparator.comparingInt((Views.QueueSummary q) -> q.options().priority()).reversed()
                        .thenComparing(Views.QueueSummary::name))
                .map(Views.QueueSummary::name)
                .toList();
    }

    /** Pops queue after queue until the batch is full or every matching queue was tried once. */
    private Mono<Result.Popped> collect(List<String> queues, int index, Options options,
                                        List<Result.Delivery> delivered, Result.Popped first) {
        if (index >= queues.size() || delivered.size() >= options.batch()) {
            if (first == null) {
                return Mono.just(Result.Popped.empty(null, options.group()));
            }
            return Mono.just(new Result.Popped(first.queue(), first.partition(), first.partitionId(), first.leaseId(),
                    first.group(), delivered, first.partitionsClaimed()));
        }
        Attempt attempt = options.attempt(queues.get(index), null, options.batch() - delivered.size(), 1);
        return attempt(attempt).flatMap(popped -> {
            delivered.addAll(popped.messages());
            Result.Popped firstNow = first == null && !popped.messages().isEmpty() ? popped : first;
            return collect(queues, index + 1, options, delivered, firstNow);
        });
    }

    private Mono<ResponseEntity<PopResponse>> pop(String queue, String partition, Map<String, String> query) {
        return pop(queue, partition, query, this::attempt);
    }

    /**
     * A pop of one queue ({@code partition} "Default" or null: a wildcard pop) whose first look carries the
     * fenced {@code acks} in the same command, and hands their outcomes to {@code acknowledged}; a long-poll
     * looks again as a plain pop. A stale lease among the acks fails the whole request with its 409.
     */
    Mono<ResponseEntity<PopResponse>> popAfter(String queue, String partition, Map<String, String> query,
                                               List<Command.AckItem> acks, Consumer<Result.Acked> acknowledged) {
        return pop(queue, "Default".equals(partition) ? null : partition, query, attempt -> acks.isEmpty()
                ? attempt(attempt)
                : broker.submit(attempt.command(acks), Result.AckedAndPopped.class).map(both -> {
                    acknowledged.accept(both.acked());
                    return both.popped();
                }));
    }

    private Mono<ResponseEntity<PopResponse>> pop(String queue, String partition, Map<String, String> query,
                                                  Function<Attempt, Mono<Result.Popped>> first) {
        Options options = Options.read(query);
        int partitions = partition == null ? (int) bounded(query, "partitions", 1, 1, 1000) : 1;
        Attempt attempt = options.attempt(queue, partition, options.batch(), partitions);
        if (!options.longPoll()) {
            return first.apply(attempt).map(this::answer);
        }
        AtomicBoolean looked = new AtomicBoolean();
        Supplier<Mono<Result.Popped>> look = () -> looked.getAndSet(true) ? attempt(attempt) : first.apply(attempt);
        return longPoll(() -> List.of(queue), options.group(), partition, look, () -> attempt.command(List.of()),
                System.nanoTime() + Duration.ofMillis(options.timeout()).toNanos(), null).map(this::answer);
    }

    /**
     * The pop a request of this route and query would submit, to go into the entry of the ack that settles
     * {@code settledPartitionIds}' claims ({@link NextPops}); null when it is not one to make ahead (an
     * {@code autoAck} pop) or would find nothing then.
     */
    Command nextPop(String queue, String partition, Map<String, String> query, Collection<String> settledPartitionIds) {
        Options options = Options.read(query);
        String named = "Default".equals(partition) ? null : partition;
        if (options.autoAck() || broker.seesItsAnswers() && !broker.read(
                s -> s.mayDeliverOnceSettled(queue, named, options.group(), settledPartitionIds))) {
            return null;
        }
        int partitions = named == null ? (int) bounded(query, "partitions", 1, 1, 1000) : 1;
        return options.attempt(queue, named, options.batch(), partitions).command(List.of());
    }

    /** The query parameters every pop route shares. */
    private record Options(int batch, boolean longPoll, long timeout, String group, SubscriptionMode mode, long from,
                           boolean autoAck, int leaseSeconds) {
        static Options read(Map<String, String> query) {
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
            int leaseSeconds = (int) bounded(query, "leaseSeconds", 0, 1, MAX_LEASE_SECONDS);
            return new Options(batch, wait, timeout, group, mode, from, flag(query.get("autoAck")), leaseSeconds);
        }

        Attempt attempt(String queue, String partition, int batch, int partitions) {
            return new Attempt(queue, partition, group, batch, autoAck, mode, from, partitions, leaseSeconds);
        }
    }

    /** {@code leaseSeconds} 0: the queue's {@code leaseTime}. */
    private record Attempt(String queue, String partition, String group, int batch, boolean autoAck,
                           SubscriptionMode mode, long from, int partitions, int leaseSeconds) {
        /** A plain {@link Command.Pop} when it needs nothing more, so old nodes and old entries read it. */
        Command command(List<Command.AckItem> acks) {
            Command.Pop pop = new Command.Pop(queue, partition, group, batch, UuidV7.next(), autoAck, mode, from,
                    partitions);
            return acks.isEmpty() && leaseSeconds == 0 ? pop : new Command.AckAndPop(acks, pop, leaseSeconds);
        }
    }

    /**
     * Pops, unless this node's state says nothing is deliverable there: that spares a log entry per empty
     * poll. A follower whose state trails a write it answered (a push its client may pop right after) asks
     * the leader instead of trusting it.
     */
    private Mono<Result.Popped> attempt(Attempt attempt) {
        if (broker.seesItsAnswers()
                && !broker.read(s -> s.mayDeliver(attempt.queue(), attempt.partition(), attempt.group()))) {
            return Mono.just(Result.Popped.empty(attempt.queue(), attempt.group()));
        }
        return broker.submit(attempt.command(List.of()), Result.class).map(PopController::popped);
    }

    private static Result.Popped popped(Result result) {
        return result instanceof Result.AckedAndPopped both ? both.popped() : (Result.Popped) result;
    }

    /**
     * Looks, and if nothing came, waits for a push to one of the watched queues (or {@code recheck}, when
     * not null) and looks again, until something comes or the deadline passes. With {@code served} (a pop
     * of one queue) a push may submit that pop for this poll in its own entry ({@link PopWaiters#submitServing}):
     * its answer is this poll's when it brought messages.
     */
    private Mono<Result.Popped> longPoll(Supplier<List<String>> watched, String group, String partition,
                                         Supplier<Mono<Result.Popped>> look, Supplier<Command> served,
                                         long deadline, Duration recheck) {
        return Mono.defer(() -> {
            List<String> queues = watched.get();
            List<PopWaiters.Waiter> parked = new ArrayList<>(queues.size());
            for (String queue : queues) {
                parked.add(waiters.arm(queue, group, partition));
            }
            Runnable disarm = () -> {
                for (int i = 0; i < queues.size(); i++) {
                    waiters.disarm(queues.get(i), parked.get(i));
                }
            };
            return look.get().flatMap(popped -> {
                long remaining = deadline - System.nanoTime();
                if (!popped.messages().isEmpty() || remaining <= 0) {
                    disarm.run();
                    if (!popped.messages().isEmpty()) {
                        // A wake-up this pop did not need may have been spent on it: hand the turn on.
                        queues.forEach(waiters::wake);
                    }
                    return Mono.just(popped);
                }
                if (served != null) {
                    parked.forEach(waiter -> waiter.servable(served));
                }
                Duration wait = Duration.ofNanos(remaining);
                if (recheck != null && recheck.compareTo(wait) < 0) {
                    wait = recheck;
                }
                return Mono.fromFuture(anyWake(parked), true)
                        .timeout(wait, leave(parked))
                        .doFinally(signal -> disarm.run())
                        .flatMap(result -> {
                            Result.Popped brought = result instanceof Result.Rejected ? null : popped(result);
                            return brought == null || brought.messages().isEmpty() ? Mono.<Result.Popped>empty()
                                    : Mono.just(brought);
                        })
                        .switchIfEmpty(Mono.defer(() -> System.nanoTime() >= deadline ? Mono.just(popped)
                                : longPoll(watched, group, partition, look, served, deadline, recheck)));
            });
        });
    }

    /** The first wake-up of any of the waiters: null for a plain one, the served pop's result otherwise. */
    private static CompletableFuture<Result> anyWake(List<PopWaiters.Waiter> parked) {
        if (parked.size() == 1) {
            return parked.get(0).wake();
        }
        return CompletableFuture.anyOf(parked.stream().map(PopWaiters.Waiter::wake).toArray(CompletableFuture[]::new))
                .thenApply(Result.class::cast);
    }

    /**
     * At the deadline: the waiters leave, unless a push or a wake-up took one first; then its wake is on its
     * way (a served pop may already hold a lease for this poll) and the poll takes it rather than drop it.
     */
    private static Mono<Result> leave(List<PopWaiters.Waiter> parked) {
        return Mono.defer(() -> {
            List<PopWaiters.Waiter> taken = new ArrayList<>();
            for (PopWaiters.Waiter waiter : parked) {
                if (!waiter.take()) {
                    taken.add(waiter);
                }
            }
            return taken.isEmpty() ? Mono.empty() : Mono.fromFuture(anyWake(taken), true);
        });
    }

    ResponseEntity<PopResponse> answer(Result.Popped popped) {
        if (popped.messages().isEmpty()) {
            return Answers.noContent();
        }
        List<PoppedMessage> messages = new ArrayList<>(popped.messages().size());
        for (Result.Delivery d : popped.messages()) {
            messages.add(new PoppedMessage(d.id(), d.transactionId(), d.traceId(), d.data(), d.producerSub(),
                    Times.iso(d.createdAt()), d.partitionId(), d.partition(), d.leaseId(), d.group(), d.attempts()));
        }
        delivered.increment(messages.size());
        return Answers.ok(new PopResponse(true, popped.queue(), popped.partition(), popped.partitionId(),
                popped.leaseId(), popped.group(), messages, popped.partitionsClaimed()));
    }

    private static boolean flag(String value) {
        return "true".equalsIgnoreCase(value) || "1".equals(value);
    }

    /** A whole-number query parameter within [min, max], else a 400 that says so; {@code fallback} when absent. */
    static long bounded(Map<String, String> query, String name, long fallback, long min, long max) {
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
