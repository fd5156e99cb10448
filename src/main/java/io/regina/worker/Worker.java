package io.regina.worker;

import io.regina.client.Ack;
import io.regina.client.Acked;
import io.regina.client.AckedAndPopped;
import io.regina.client.BrokerRefusedException;
import io.regina.client.Message;
import io.regina.client.PopOptions;
import io.regina.client.Popped;
import io.regina.client.ReginaClient;
import io.regina.client.ReginaException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the jobs of one queue, one at a time, on a job thread of its own.
 *
 * <p>The loop: pop up to {@code prefetch} jobs under one lease of {@code leaseSeconds} (renewed by a
 * {@link LeaseKeeper} while they wait and run); run them in order; ack each when it ends. The ack of a batch's
 * last job travels with the next pop (ack-then-pop: one request, one durable write, the acks applied first).
 * The ack of any other job is sent before the next job starts, because the next job could kill the worker
 * (an out-of-memory error, a timeout kill by its supervisor). With {@code asyncAcks} and a {@link Journal},
 * the journaled ack is enough to start the next job (the supervisor sends it if the worker dies), and the
 * ack is sent on the worker's I/O thread meanwhile. With {@code popAhead}, the pop of the next batch is sent
 * when the last job of a full batch starts, so the next batch is there when it ends.
 *
 * <p>Retries: see {@link Verdict} and {@link AttemptRules}. The per-attempt count is the message's
 * {@code attempts}; exceptions for {@code maxExceptions} are counted by this worker (a job retried on
 * another worker starts that count again).
 *
 * <p>Stop ({@link #stop}): the running job may finish within the grace, else it is interrupted and
 * released, its attempt counted; prefetched jobs that never started are handed back with {@code retry},
 * uncharged. A long-poll in progress ends within {@code pollTimeout}.
 */
public final class Worker {
    private static final System.Logger LOG = System.getLogger(Worker.class.getName());
    private static final Duration STUCK_AFTER_INTERRUPT = Duration.ofSeconds(1);
    private static final int REMEMBERED_EXCEPTIONS = 10_000;

    /** Why {@link #run} returned. */
    public enum Exit {
        /** {@link #stop} was called. */
        STOPPED,
        /** A job ignored its interrupt after a timeout, and {@code exitWhenStuck} was set. */
        STUCK_JOB
    }

    private final ReginaClient client;
    private final String queue;
    private final Map<String, JobKind<?>> kinds;
    private final int prefetch;
    private final int leaseSeconds;
    private final PopOptions pop;
    private final boolean popAhead;
    private final boolean asyncAcks;
    private final boolean exitWhenStuck;
    private final Journal journal;
    private final List<JobListener> listeners;
    private final WorkerMetrics metrics;
    private final Clock clock = Clock.systemUTC();

    private volatile boolean stopping;
    private volatile Thread loop;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile Future<Outcome> running;
    private volatile Exit exit = Exit.STOPPED;
    private ExecutorService jobs;
    private final Map<String, Integer> exceptions = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
            return size() > REMEMBERED_EXCEPTIONS;
        }
    };
    private final ConcurrentLinkedQueue<Ack> unsent = new ConcurrentLinkedQueue<>();
    /** Leases whose jobs all ended, whose last acks may still be on their way: {@code done} once they are. */
    private final List<String> ending = new ArrayList<>();

    private Worker(Builder b) {
        this.client = b.client;
        this.queue = b.queue;
        this.kinds = Map.copyOf(b.kinds);
        this.prefetch = b.prefetch;
        this.leaseSeconds = b.leaseSeconds;
        this.pop = PopOptions.defaults().batch(b.prefetch).consumerGroup(b.consumerGroup).leaseSeconds(b.leaseSeconds)
                .waitUpTo(b.pollTimeout);
        this.popAhead = b.popAhead;
        this.asyncAcks = b.asyncAcks;
        this.exitWhenStuck = b.exitWhenStuck;
        this.journal = b.journal;
        this.listeners = List.copyOf(b.listeners);
        this.metrics = b.metrics;
    }

    public static Builder builder(ReginaClient client, String queue) {
        return new Builder(client, queue);
    }

    /** Runs the loop on a new thread of its own; {@link #stop} ends it. */
    public Thread start() {
        Thread thread = WorkerThreads.named("regina-worker").newThread(this::run);
        thread.start();
        return thread;
    }

    /**
     * Runs the loop on this thread until {@link #stop}, or a stuck job with {@code exitWhenStuck}. A broker
     * that cannot be reached is retried for as long as it takes; a broker that refuses the pop itself (a
     * token without the right role, an option out of range) ends it with that {@link BrokerRefusedException}.
     */
    public Exit run() {
        loop = Thread.currentThread();
        jobs = Executors.newSingleThreadExecutor(WorkerThreads.named("regina-job"));
        ExecutorService io = Executors.newSingleThreadExecutor(WorkerThreads.named("regina-io"));
        List<Ack> carried = new ArrayList<>();
        List<CompletableFuture<?>> inFlight = new ArrayList<>();
        try (LeaseKeeper leases = new LeaseKeeper(client, leaseSeconds, metrics)) {
            CompletableFuture<Popped> ahead = null;
            while (!stopping) {
                Popped batch;
                if (ahead != null) {
                    batch = ahead.join();
                    ahead = null;
                    if (!carried.isEmpty() && !batch.isEmpty()) {
                        send(List.copyOf(carried));
                        carried.clear();
                        journalDone();
                    }
                } else {
                    batch = Popped.NOTHING;
                }
                if (batch.isEmpty()) {
                    carried.addAll(drainUnsent());
                    batch = ackThenPop(carried, leases);
                    if (batch == null || batch.isEmpty()) {
                        continue;
                    }
                }
                List<Message> messages = batch.messages();
                for (int i = 0; i < messages.size(); i++) {
                    Message message = messages.get(i);
                    if (stopping) {
                        handBack(messages.subList(i, messages.size()), carried);
                        break;
                    }
                    boolean last = i == messages.size() - 1;
                    if (last && popAhead && messages.size() == prefetch) {
                        ahead = CompletableFuture.supplyAsync(() -> popAhead(leases), io);
                    }
                    Ack ack = work(message).ack(message);
                    journal.finished(message, ack);
                    if (last) {
                        carried.add(ack);
                    } else if (asyncAcks) {
                        inFlight.add(CompletableFuture.runAsync(() -> send(List.of(ack)), io));
                    } else {
                        send(List.of(ack));
                    }
                }
                inFlight.forEach(CompletableFuture::join); // sent while the last job ran: rarely a wait
                inFlight.clear();
                leases.forget(batch.leaseId());
                ending.add(batch.leaseId());
            }
            Popped unstarted = ahead == null ? Popped.NOTHING : ahead.join();
            if (!unstarted.isEmpty()) {
                handBack(unstarted.messages(), carried);
                ending.add(unstarted.leaseId());
            }
            inFlight.forEach(CompletableFuture::join);
            carried.addAll(drainUnsent());
            if (!carried.isEmpty()) {
                send(carried);
            }
            journalDone();
            int lost = drainUnsent().size();
            if (lost > 0) {
                LOG.log(System.Logger.Level.ERROR, lost + " acks not sent at stop: their jobs run again when their"
                        + " leases expire");
            }
        } finally {
            io.shutdown();
            jobs.shutdownNow();
            ended.countDown();
        }
        return exit;
    }

    /**
     * Stops the loop: no new pop, the running job may finish within {@code grace}, the rest is handed back.
     * Returns once the loop ended (its last acks sent), or false when it has not within {@code grace} plus
     * the poll timeout.
     */
    public boolean stop(Duration grace) throws InterruptedException {
        stopping = true;
        Thread thread = loop;
        if (thread == null || thread == Thread.currentThread()) {
            return thread == null;
        }
        if (ended.await(Math.max(1, grace.toMillis()), TimeUnit.MILLISECONDS)) {
            return true;
        }
        Future<Outcome> job = running;
        if (job != null) {
            job.cancel(true);
        }
        return ended.await(pop.timeout().plus(STUCK_AFTER_INTERRUPT).plusSeconds(5).toMillis(), TimeUnit.MILLISECONDS);
    }

    public boolean stopping() {
        return stopping;
    }

    private Popped ackThenPop(List<Ack> carried, LeaseKeeper leases) {
        try {
            AckedAndPopped answer = client.ackThenPop(queue, carried, pop);
            report(carried, answer.acknowledged());
            carried.clear();
            journalDone();
            Popped batch = answer.pop();
            hold(batch, leases);
            if (stopping && !batch.isEmpty()) {
                handBack(batch.messages(), carried);
                leases.forget(batch.leaseId());
                ending.add(batch.leaseId());
                return null;
            }
            return batch;
        } catch (BrokerRefusedException e) {
            if (e.status() == 409 && "LEASE_NOT_HELD".equals(e.code())) {
                // one of them is late; alone, each ack is judged by itself and only the stale ones are refused
                LOG.log(System.Logger.Level.WARNING, "a lease had expired, acking one by one: " + e.error());
                send(List.copyOf(carried));
                carried.clear();
                journalDone();
                return null;
            }
            throw e;
        } catch (ReginaException e) {
            LOG.log(System.Logger.Level.WARNING, "pop of " + queue + " failed, trying again", e);
            return null;
        }
    }

    private Popped popAhead(LeaseKeeper leases) {
        try {
            Popped batch = client.pop(queue, new PopOptions(prefetch, false, pop.timeout(), pop.consumerGroup(), null,
                    leaseSeconds));
            hold(batch, leases);
            return batch;
        } catch (ReginaException e) {
            LOG.log(System.Logger.Level.WARNING, "pop-ahead of " + queue + " failed", e);
            return Popped.NOTHING;
        }
    }

    private void hold(Popped batch, LeaseKeeper leases) {
        if (!batch.isEmpty()) {
            leases.hold(batch.leaseId());
            journal.leased(batch);
        }
    }

    /** Runs one delivery (or refuses to) and returns how it ended; its ack is the caller's. */
    private Verdict work(Message message) {
        Instant began = clock.instant();
        JsonJob job = JsonJob.read(client.json(), message, kinds);
        JobEvent event = new JobEvent(job.kindName(), message);
        Verdict verdict;
        Optional<String> refusal = job.refusal() != null ? Optional.of(job.refusal())
                : AttemptRules.refuseToStart(job.kindName(), job.kind().options(), message.attempts(),
                        dispatched(message, began), began);
        if (refusal.isPresent()) {
            verdict = new Verdict.Fail(refusal.get(), null);
        } else {
            journal.started(message);
            listeners.forEach(l -> notify(() -> l.before(event)));
            Outcome outcome = attempt(job, message);
            String key = message.partitionId() + "/" + message.transactionId();
            int before = exceptions.getOrDefault(key, 0);
            verdict = AttemptRules.judge(job.kindName(), job.kind().options(), message.attempts(), before,
                    dispatched(message, began), clock.instant(), outcome);
            if (outcome instanceof Outcome.Threw && verdict instanceof Verdict.Retry) {
                exceptions.put(key, before + 1);
            } else if (!(verdict instanceof Verdict.Retry)) {
                exceptions.remove(key);
            }
            Verdict ended = verdict;
            listeners.forEach(l -> notify(() -> l.after(event, ended)));
        }
        if (verdict instanceof Verdict.Fail fail) {
            listeners.forEach(l -> notify(() -> l.failing(event, fail.reason(), fail.cause())));
        }
        metrics.jobFinished(job.kindName(), verdict, Duration.between(began, clock.instant()));
        return verdict;
    }

    private Outcome attempt(JsonJob job, Message message) {
        JobContext context = new JobContext(job.kindName(), message, () -> stopping);
        CountDownLatch ended = new CountDownLatch(1);
        Future<Outcome> future = jobs.submit(() -> {
            try {
                job.run(context);
                return context.requested() != null ? context.requested() : new Outcome.Completed();
            } catch (Exception e) {
                return context.requested() != null ? context.requested() : new Outcome.Threw(e);
            } finally {
                ended.countDown();
            }
        });
        running = future;
        Duration limit = job.kind().options().timeout();
        try {
            return limit == null ? future.get() : future.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            awaitEnd(ended, message);
            return new Outcome.TimedOut(limit);
        } catch (CancellationException e) {
            awaitEnd(ended, message);
            return new Outcome.Stopped();
        } catch (ExecutionException e) {
            return new Outcome.Threw(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            return new Outcome.Stopped();
        } finally {
            running = null;
        }
    }

    /** A job that ignores its interrupt keeps its thread: the worker goes on with a new one, or exits. */
    private void awaitEnd(CountDownLatch ended, Message message) {
        try {
            if (ended.await(STUCK_AFTER_INTERRUPT.toMillis(), TimeUnit.MILLISECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.log(System.Logger.Level.WARNING, "job " + message.transactionId() + " ignored its interrupt; "
                + (exitWhenStuck ? "the worker stops" : "its thread is abandoned"));
        jobs.shutdownNow();
        jobs = Executors.newSingleThreadExecutor(WorkerThreads.named("regina-job"));
        if (exitWhenStuck) {
            exit = Exit.STUCK_JOB;
            stopping = true;
        }
    }

    private static Instant dispatched(Message message, Instant otherwise) {
        try {
            return message.createdAt() == null ? otherwise : Instant.parse(message.createdAt());
        } catch (java.time.format.DateTimeParseException e) {
            return otherwise;
        }
    }

    private void handBack(List<Message> unstarted, List<Ack> carried) {
        if (unstarted.isEmpty()) {
            return;
        }
        Verdict back = new Verdict.HandBack();
        unstarted.forEach(m -> carried.add(back.ack(m)));
        metrics.handedBack(unstarted.size());
    }

    /** Sends acks; any that could not be sent go with the next request. */
    private void send(List<Ack> acks) {
        try {
            report(acks, client.ack(acks));
        } catch (ReginaException e) {
            LOG.log(System.Logger.Level.WARNING, acks.size() + " acks not sent, trying with the next pop", e);
            unsent.addAll(acks);
        }
    }

    /** Journals {@code done} for the ended leases, unless some ack failed and waits for the next request. */
    private void journalDone() {
        if (unsent.isEmpty()) {
            ending.forEach(journal::done);
            ending.clear();
        }
    }

    private List<Ack> drainUnsent() {
        List<Ack> drained = new ArrayList<>();
        for (Ack a; (a = unsent.poll()) != null; ) {
            drained.add(a);
        }
        return drained;
    }

    private void report(List<Ack> acks, List<Acked> answers) {
        for (int i = 0; i < acks.size() && i < answers.size(); i++) {
            if (answers.get(i).success()) {
                journal.acked(acks.get(i));
            } else {
                LOG.log(System.Logger.Level.WARNING, "ack of " + acks.get(i).transactionId() + " refused: "
                        + answers.get(i).error());
            }
        }
    }

    private static void notify(Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "a job listener failed", e);
        }
    }

    /** A worker's settings; {@link #job} at least once. */
    public static final class Builder {
        private final ReginaClient client;
        private final String queue;
        private final Map<String, JobKind<?>> kinds = new LinkedHashMap<>();
        private String consumerGroup;
        private int prefetch = 1;
        private int leaseSeconds = 60;
        private Duration pollTimeout = Duration.ofSeconds(10);
        private boolean popAhead;
        private boolean asyncAcks;
        private boolean exitWhenStuck;
        private Journal journal = Journal.NONE;
        private final List<JobListener> listeners = new ArrayList<>();
        private WorkerMetrics metrics = new WorkerMetrics() { };

        private Builder(ReginaClient client, String queue) {
            this.client = client;
            this.queue = queue;
        }

        public Builder job(JobKind<?> kind) {
            kinds.put(kind.name(), kind);
            return this;
        }

        /** null (the default) is queue mode. */
        public Builder consumerGroup(String group) {
            this.consumerGroup = group;
            return this;
        }

        /** Jobs popped at once under one lease; 1 by default. */
        public Builder prefetch(int jobs) {
            this.prefetch = jobs;
            return this;
        }

        /** The lease of each pop, renewed every third of it while its jobs wait and run; 60 s by default. */
        public Builder leaseSeconds(int seconds) {
            this.leaseSeconds = seconds;
            return this;
        }

        /** How long one pop waits for work; a stop waits for it to end. 10 s by default. */
        public Builder pollTimeout(Duration timeout) {
            this.pollTimeout = timeout;
            return this;
        }

        public Builder popAhead(boolean ahead) {
            this.popAhead = ahead;
            return this;
        }

        /** Start the next job once the last one's ack is journaled; needs a {@link Journal} to keep acks safe. */
        public Builder asyncAcks(boolean async) {
            this.asyncAcks = async;
            return this;
        }

        /** Where the worker writes what it holds and has started, for a supervisor. */
        public Builder journal(Journal lines) {
            this.journal = lines;
            return this;
        }

        /** End {@link #run} when a job ignores its timeout's interrupt, so a supervisor replaces the JVM. */
        public Builder exitWhenStuck(boolean exit) {
            this.exitWhenStuck = exit;
            return this;
        }

        public Builder listener(JobListener listener) {
            listeners.add(listener);
            return this;
        }

        public Builder metrics(WorkerMetrics hook) {
            this.metrics = hook;
            return this;
        }

        public Worker build() {
            if (kinds.isEmpty()) {
                throw new IllegalStateException("a worker needs at least one job kind");
            }
            if (prefetch < 1 || leaseSeconds < 1) {
                throw new IllegalStateException("prefetch and leaseSeconds must be at least 1");
            }
            if (asyncAcks && journal == Journal.NONE) {
                throw new IllegalStateException("async acks need a journal: without one, an ack not yet sent when"
                        + " the worker dies is lost and its job runs again");
            }
            return new Worker(this);
        }
    }
}
