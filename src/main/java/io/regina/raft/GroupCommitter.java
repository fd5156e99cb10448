package io.regina.raft;

import io.regina.queue.Command;
import io.regina.queue.Rejection;
import io.regina.queue.Result;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit above Raft (ARCHITECTURE rule 4): every command that arrives while
 * {@code maxInflightEntries} entries are already in flight, while an entry of
 * {@code overlapBelowCommands} or more is, or while any is and entries have been in flight for
 * {@code overlapBelowOccupancy} of the recent time, waits in a queue, and all queued commands (up to a
 * count and byte cap) travel together in the next log entry. There is no timer: at low load one command
 * is one entry and one fsync; under load one entry carries many commands.
 *
 * <p>Each caller's future completes with its own result (index i of the entry's reply) on the thread
 * that answered the entry (on the leader, Ratis' state machine updater), and the next queued entry
 * is sent from there too. A hand-off to another executor here would cost one thread wake-up per
 * entry on the path of every answer (the profile of issue 8 found a quarter of the broker's CPU in
 * such a reply thread); callers that do more than a little work on a result continue on their own
 * executor (the HTTP layer resumes on the connection's event loop).
 */
public final class GroupCommitter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitter.class);

    /** Sends one encoded client request (a whole entry) and completes with its results, one per command. */
    @FunctionalInterface
    public interface EntrySender {
        CompletableFuture<List<Result>> send(byte[] request);
    }

    /**
     * Limits of one entry and of the pipeline. A further entry starts while others are in flight only if
     * each of those carries fewer than {@code overlapBelowCommands} commands and entries were in flight
     * less than {@code overlapBelowOccupancy} of the recent time: at a low rate, entries of a command or
     * two overlap, so a command does not wait for the entry ahead of it to be applied; under load the
     * commands wait for the entry in flight and travel together, which costs Ratis one entry instead of
     * two (issue 8: Ratis' threads spend ~200 µs of CPU per entry, whatever it carries). The occupancy rule
     * catches the load that comes as many small entries (a steady 1,000 jobs/s is ~2,000 entries of one or
     * two commands a second): there a second entry in flight bought no latency and cost CPU.
     * An occupancy above 1 turns that rule off.
     */
    public record Limits(int maxInflightEntries, int overlapBelowCommands, double overlapBelowOccupancy,
                         int maxCommandsPerEntry, int maxEntryBytes, int maxCommandBytes) {
        public Limits {
            if (maxInflightEntries < 1 || overlapBelowCommands < 1 || !(overlapBelowOccupancy > 0)
                    || maxCommandsPerEntry < 1 || maxEntryBytes < 1 || maxCommandBytes < 1) {
                throw new IllegalArgumentException("group commit limits must be positive: " + this);
            }
        }

        public static Limits defaults() {
            return new Limits(2, 4, 0.6, 4096, 4 << 20, 8 << 20);
        }
    }

    /** How quickly the occupancy forgets: some 20-40 entries at the rates where the rule decides. */
    static final long OCCUPANCY_HALF_LIFE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    /** One caller's command, encoded, with when it was submitted. */
    private record Pending(byte[] encoded, long submittedAt, CompletableFuture<Result> future) { }

    /** How long a caller waits for its commands to be answered before it is told they were not, in time. */
    public static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(20);

    private final EntrySender sender;
    private final RaftMetrics metrics;
    private final Limits limits;
    private final LongSupplier clock;
    private final PipelineOccupancy occupancy;

    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final List<List<Pending>> inflight = new ArrayList<>();
    /** Why commands are refused, once the node closes or its division stopped; null while open. */
    private RuntimeException closedBy;

    public GroupCommitter(EntrySender sender, RaftMetrics metrics, Limits limits) {
        this(sender, metrics, limits, System::nanoTime);
    }

    GroupCommitter(EntrySender sender, RaftMetrics metrics, Limits limits, LongSupplier clock) {
        this.sender = Objects.requireNonNull(sender);
        this.metrics = Objects.requireNonNull(metrics);
        this.limits = Objects.requireNonNull(limits);
        this.clock = Objects.requireNonNull(clock);
        this.occupancy = new PipelineOccupancy(OCCUPANCY_HALF_LIFE_NANOS, clock.getAsLong());
    }

    /** Replicates and applies a command; completes with its result once durable and applied. */
    public CompletableFuture<Result> submit(Command command) {
        return submitTogether(List.of(command)).get(0);
    }

    /**
     * Replicates and applies commands in this order with nothing between them: they join the queue
     * together, so they travel in one entry unless the entry's limits split them (then in consecutive
     * entries, still in order). A command that cannot be encoded or is too large is answered at once and
     * the others go on.
     */
    public List<CompletableFuture<Result>> submitTogether(List<Command> commands) {
        List<CompletableFuture<Result>> futures = new ArrayList<>(commands.size());
        List<Pending> accepted = new ArrayList<>(commands.size());
        long now = clock.getAsLong();
        for (Command command : commands) {
            byte[] encoded;
            try {
                encoded = EntryCodec.encodeCommand(command);
            } catch (RuntimeException e) {
                futures.add(CompletableFuture.failedFuture(e));
                continue;
            } catch (OutOfMemoryError e) {
                // a command the heap cannot hold twice is refused as a full memory refuses a push (429),
                // rather than fail the request on its event loop; its bytes are garbage once refused
                futures.add(CompletableFuture.completedFuture(memoryFull()));
                continue;
            }
            if (encoded.length > limits.maxCommandBytes()) {
                futures.add(CompletableFuture.completedFuture(
                        Rejection.TOO_LARGE.reject(encoded.length, limits.maxCommandBytes())));
                continue;
            }
            Pending pending = new Pending(encoded, now, new CompletableFuture<>());
            accepted.add(pending);
            futures.add(pending.future());
        }
        if (accepted.isEmpty()) {
            return futures;
        }
        List<List<Pending>> batches;
        synchronized (this) {
            if (closedBy != null) {
                RuntimeException refused = closedBy;
                accepted.forEach(p -> p.future().completeExceptionally(refused));
                return futures;
            }
            queue.addAll(accepted);
            batches = takeBatches();
        }
        batches.forEach(this::send);
        return futures;
    }

    private static Result memoryFull() {
        Runtime runtime = Runtime.getRuntime();
        return Rejection.MEMORY_FULL.reject((runtime.totalMemory() - runtime.freeMemory()) >> 20,
                runtime.maxMemory() >> 20);
    }

    /** Under the lock: the batches that may start now. */
    private List<List<Pending>> takeBatches() {
        List<List<Pending>> batches = List.of();
        if (inflight.isEmpty() && !queue.isEmpty()) {
            occupancy.mark(true, clock.getAsLong());
        }
        while (inflight.size() < limits.maxInflightEntries() && !queue.isEmpty() && mayOverlap()) {
            List<Pending> batch = new ArrayList<>(Math.min(queue.size(), limits.maxCommandsPerEntry()));
            long bytes = 0;
            while (!queue.isEmpty() && batch.size() < limits.maxCommandsPerEntry()) {
                Pending next = queue.peek();
                if (!batch.isEmpty() && bytes + next.encoded().length > limits.maxEntryBytes()) {
                    break;
                }
                batch.add(queue.poll());
                bytes += next.encoded().length;
            }
            inflight.add(batch);
            if (batches.isEmpty()) {
                batches = new ArrayList<>(2);
            }
            batches.add(batch);
        }
        return batches;
    }

    /**
     * Under the lock: whether the entries in flight are small enough, and the log idle enough, for one more
     * to go beside them.
     */
    private boolean mayOverlap() {
        if (inflight.isEmpty()) {
            return true;
        }
        for (List<Pending> batch : inflight) {
            if (batch.size() >= limits.overlapBelowCommands()) {
                return false;
            }
        }
        return occupancy.at(clock.getAsLong()) < limits.overlapBelowOccupancy();
    }

    /** Under the lock, after entries left the pipeline: marks it idle if none is left. */
    private void markIfIdle() {
        if (inflight.isEmpty()) {
            occupancy.mark(false, clock.getAsLong());
        }
    }

    private void send(List<Pending> batch) {
        List<byte[]> commands = new ArrayList<>(batch.size());
        for (Pending p : batch) {
            commands.add(p.encoded());
        }
        long started = clock.getAsLong();
        CompletableFuture<List<Result>> reply;
        try {
            byte[] request = EntryCodec.encodeRequest(commands);
            metrics.recordEntrySubmitted(batch.size());
            reply = sender.send(request);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        } catch (OutOfMemoryError e) {
            // an entry the heap cannot hold whole (its encoding or Ratis' copy of it) is refused as a full memory
            // refuses a push; the answer frees its place in the pipeline, which would otherwise wait for it for good
            reply = CompletableFuture.completedFuture(Collections.nCopies(batch.size(), memoryFull()));
        }
        reply.whenComplete((results, error) -> complete(batch, results, error, started));
    }

    private void complete(List<Pending> batch, List<Result> results, Throwable error, long started) {
        boolean mine;
        synchronized (this) {
            mine = inflight.remove(batch);
            markIfIdle();
        }
        try {
            if (mine) {
                deliver(batch, results, error, started);
            }
        } finally {
            List<List<Pending>> next;
            synchronized (this) {
                next = closedBy != null ? List.of() : takeBatches();
            }
            next.forEach(this::send);
        }
    }

    private void deliver(List<Pending> batch, List<Result> results, Throwable error, long started) {
        if (error == null) {
            try {
                if (results.size() != batch.size()) {
                    throw new CodecException("entry of " + batch.size() + " commands answered " + results.size()
                            + " results");
                }
                metrics.recordCommit(clock.getAsLong() - started);
                for (int i = 0; i < batch.size(); i++) {
                    batch.get(i).future().complete(results.get(i));
                }
                return;
            } catch (RuntimeException e) {
                error = e;
            }
        }
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        metrics.recordEntryFailed();
        LOG.debug("an entry of {} command(s) failed", batch.size(), cause);
        for (Pending p : batch) {
            p.future().completeExceptionally(cause);
        }
    }

    /**
     * Fails, with a {@link TimeoutException}, what was submitted more than {@link #COMMIT_TIMEOUT} before
     * {@code nowNanos} and is not answered yet (an entry in flight, or commands still queued), and sends what
     * may go out in their place; a late reply for such an entry is dropped. One periodic call instead of a
     * timer per request. The commands may still be applied later: the caller was told "not in time", never
     * "not done".
     */
    public void expire(long nowNanos) {
        long timeout = COMMIT_TIMEOUT.toNanos();
        List<Pending> expired = new ArrayList<>();
        List<List<Pending>> next;
        synchronized (this) {
            for (Iterator<List<Pending>> it = inflight.iterator(); it.hasNext(); ) {
                List<Pending> batch = it.next();
                if (nowNanos - batch.get(0).submittedAt() > timeout) {
                    expired.addAll(batch);
                    it.remove();
                }
            }
            while (!queue.isEmpty() && nowNanos - queue.peek().submittedAt() > timeout) {
                expired.add(queue.poll());
            }
            markIfIdle();
            next = expired.isEmpty() || closedBy != null ? List.of() : takeBatches();
        }
        if (!expired.isEmpty()) {
            TimeoutException late = new TimeoutException("not committed within " + COMMIT_TIMEOUT.toSeconds() + " s");
            LOG.warn("{} submission(s) not committed within {} s", expired.size(), COMMIT_TIMEOUT.toSeconds());
            expired.forEach(p -> p.future().completeExceptionally(late));
        }
        next.forEach(this::send);
    }

    /** Entries sent and not answered yet. */
    public synchronized int inflightEntries() {
        return inflight.size();
    }

    /** The share of the recent time with an entry in flight (see {@link PipelineOccupancy}). */
    public synchronized double occupancy() {
        return occupancy.at(clock.getAsLong());
    }

    /** Commands waiting for the next entry. */
    public synchronized int queuedCommands() {
        return queue.size();
    }

    /**
     * Stops accepting commands, fails the queued ones and waits up to {@code timeoutMillis} for
     * the entries in flight to be answered.
     */
    public void drain(long timeoutMillis) {
        List<Pending> dropped;
        RuntimeException refused;
        synchronized (this) {
            if (closedBy == null) {
                closedBy = shuttingDown();
            }
            refused = closedBy;
            dropped = new ArrayList<>(queue);
            queue.clear();
        }
        dropped.forEach(p -> p.future().completeExceptionally(refused));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (inflightEntries() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Stops accepting commands and fails everything not answered yet. */
    @Override
    public void close() {
        refuseFromNowOn(shuttingDown());
    }

    /**
     * Fails everything not answered yet and every later command with {@code why} (the first reason given
     * stays): for a node whose division stopped, which will answer nothing again.
     */
    public void refuseFromNowOn(RuntimeException why) {
        List<Pending> failed = new ArrayList<>();
        RuntimeException refused;
        synchronized (this) {
            if (closedBy == null) {
                closedBy = why;
            }
            refused = closedBy;
            failed.addAll(queue);
            queue.clear();
            inflight.forEach(failed::addAll);
            inflight.clear();
        }
        failed.forEach(p -> p.future().completeExceptionally(refused));
    }

    private static IllegalStateException shuttingDown() {
        return new IllegalStateException("the raft node is shutting down");
    }
}
