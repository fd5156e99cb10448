package io.regina.raft;

import io.regina.queue.BrokerState;
import io.regina.queue.Command;
import io.regina.queue.FailedJobs;
import io.regina.queue.Rejection;
import io.regina.queue.Result;
import io.regina.queue.StateWriter;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;

import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.proto.RaftProtos.StateMachineLogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.util.MD5FileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Ratis state machine around the broker state.
 *
 * <ul>
 *   <li>{@link #startTransaction(RaftClientRequest)} (leader, before the append) decodes the
 *       client request, rejects it if it does not decode, and stamps the leader's time into the
 *       log entry: time is data (ARCHITECTURE rule 3).</li>
 *   <li>{@link #applyTransaction(TransactionContext)} (every replica, log order, one thread)
 *       applies each command under the write lock with a monotonic {@code now}, advances the
 *       applied term-index under the same lock, drains deliverable queues, notifies listeners
 *       and answers the encoded results.</li>
 *   <li>Snapshots are single files in {@link SimpleStateMachineStorage} ({@link SnapshotCodec});
 *       Ratis triggers them every N entries and on stop, and each waits until the log since the last
 *       holds an image's worth of bytes ({@link SnapshotPace}). The image is captured on the apply thread and
 *       written by a {@link SnapshotWriter} thread, so applies go on while it is written; old files are cleaned up
 *       only after a new one is written ({@link SnapshotStorage}).</li>
 *   <li>Work the state leaves for after its applies ({@link StateAdapter#behind}: the failed-jobs word
 *       index) is done by a {@link BackgroundCatchUp} thread in slices of {@value #CATCH_UP_SLICE} steps
 *       under the write lock, which let applies in between; by a read that needs it done (a text search),
 *       before it reads again; and by the apply thread itself when more than {@value #MAX_BEHIND} steps
 *       are left.</li>
 * </ul>
 */
public class BrokerStateMachine<S> extends BaseStateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerStateMachine.class);
    /** Steps of the left-over work per hold of the write lock: a few hundred µs of the failed-jobs index. */
    static final int CATCH_UP_SLICE = 64;
    /**
     * Left-over steps past which the apply thread does the excess itself rather than let it grow: a
     * million failed rows (~28 MB of queued changes, a few seconds of the failed-jobs index), so that a
     * million rows failing, retried or flushed at once are indexed while applies pause. A retry by search
     * right after such a burst catches it up inside its apply.
     */
    static final int MAX_BEHIND = 1_000_000;
    /** How long applies must have paused before the background catch-up takes the lock. */
    static final long APPLIES_PAUSED_NANOS = 1_000_000;

    private final StateAdapter<S> adapter;
    private final RaftMetrics metrics;
    private final long maxRequestBytes;
    private final SimpleStateMachineStorage storage = new SnapshotStorage();
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private volatile LongConsumer timerListener = due -> { };
    private final BackgroundCatchUp catchUp = new BackgroundCatchUp("state-catch-up", this::catchUpSlice);
    private final SnapshotPace snapshotPace = new SnapshotPace();
    private final SnapshotWriter snapshots = new SnapshotWriter("snapshot-writer", this::latestSnapshotIndex,
            snapshotPace::due);
    private final LocalAnswers localAnswers = new LocalAnswers();

    /** When the last apply ended ({@link System#nanoTime}): the catch-up waits for applies to pause. */
    private volatile long lastApplied = System.nanoTime();
    /** Guarded by {@link #lock}. */
    private S state;
    /** The largest {@code now} applied so far; guarded by {@link #lock}. */
    private long lastNow = Long.MIN_VALUE;

    /**
     * @param maxRequestBytes the largest client request accepted into the log; larger ones are
     *                        rejected before the append (a log entry larger than Ratis' write
     *                        buffer would stop the log worker)
     */
    public BrokerStateMachine(StateAdapter<S> adapter, RaftMetrics metrics, long maxRequestBytes) {
        this.adapter = Objects.requireNonNull(adapter);
        this.metrics = Objects.requireNonNull(metrics);
        this.maxRequestBytes = maxRequestBytes;
        this.state = adapter.empty();
    }

    /** Where the results of this node's own entries go when it leads (see {@link LocalAnswers}). */
    LocalAnswers localAnswers() {
        return localAnswers;
    }

    /** The production state machine over {@link BrokerState}. */
    public static BrokerStateMachine<BrokerState> forBrokerState(RaftMetrics metrics, long maxRequestBytes) {
        return new BrokerStateMachine<>(StateAdapter.brokerState(), metrics, maxRequestBytes);
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        getLifeCycle().startAndTransition(() -> {
            super.initialize(server, groupId, raftStorage);
            storage.init(raftStorage);
            reinitialize();
        });
    }

    /**
     * Ratis pauses before installing a snapshot from the leader (after a write in flight is done, so
     * that it cannot land over the installed files); {@link #reinitialize()} resumes.
     */
    @Override
    public void pause() {
        snapshots.awaitInFlight();
        if (getLifeCycleState() == LifeCycle.State.RUNNING) {
            getLifeCycle().transition(LifeCycle.State.PAUSING);
            getLifeCycle().transition(LifeCycle.State.PAUSED);
        }
    }

    /** Loads the newest snapshot (RATIS-2111: {@code loadLatestSnapshot}, not the cached one). */
    @Override
    public void reinitialize() throws IOException {
        SingleFileSnapshotInfo info = storage.loadLatestSnapshot();
        if (info == null) {
            LOG.info("{}: no snapshot, starting from an empty state", this);
        } else {
            File file = info.getFile().getPath().toFile();
            if (info.getFile().getFileDigest() != null) {
                MD5FileUtil.verifySavedMD5(file, info.getFile().getFileDigest());
            }
            SnapshotCodec.Loaded<S> loaded = SnapshotCodec.read(file.toPath(), adapter::readFrom);
            if (loaded.term() != info.getTerm() || loaded.index() != info.getIndex()) {
                throw new IOException("snapshot " + file + " holds term-index (" + loaded.term() + ", "
                        + loaded.index() + ") but is named for " + info.getTermIndex());
            }
            lock.writeLock().lock();
            try {
                state = loaded.state();
                lastNow = loaded.lastNow();
                updateLastAppliedTermIndex(info.getTermIndex());
                snapshotPace.captured();
                snapshotPace.written(file.length());
            } finally {
                lock.writeLock().unlock();
            }
            LOG.info("{}: loaded snapshot {} at {}", this, file, info.getTermIndex());
        }
        if (getLifeCycleState() == LifeCycle.State.PAUSED) {
            getLifeCycle().transition(LifeCycle.State.STARTING);
            getLifeCycle().transition(LifeCycle.State.RUNNING);
        }
    }

    @Override
    public SimpleStateMachineStorage getStateMachineStorage() {
        return storage;
    }

    // ------------------------------------------------------------------ write path

    /** On the leader, before the append: validate, then stamp the leader's time into the entry. */
    @Override
    public TransactionContext startTransaction(RaftClientRequest request) throws IOException {
        TransactionContext.Builder builder = TransactionContext.newBuilder()
                .setStateMachine(this)
                .setClientRequest(request);
        ByteString content = request.getMessage().getContent();
        try {
            if (content.size() > maxRequestBytes) {
                throw new CodecException("client request of " + content.size() + " bytes exceeds the limit of "
                        + maxRequestBytes + " bytes per log entry");
            }
            List<Command> commands = EntryCodec.decodeRequest(EntryCodec.bufferOf(content));
            long now = System.currentTimeMillis();
            return builder
                    .setLogData(EntryCodec.entryFromRequest(now, content))
                    .setStateMachineContext(new EntryCodec.Entry(now, commands))
                    .build();
        } catch (CodecException e) {
            LOG.warn("{}: rejecting a client request before the log: {}", this, e.getMessage());
            TransactionContext trx = builder.build();
            trx.setException(e);
            return trx;
        }
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto logEntry = trx.getLogEntry();
        EntryCodec.Entry entry;
        if (trx.getStateMachineContext() instanceof EntryCodec.Entry decoded) {
            entry = decoded;
        } else {
            try {
                entry = EntryCodec.decodeEntry(logEntry.getStateMachineLogEntry().getLogData().asReadOnlyByteBuffer());
            } catch (RuntimeException e) {
                LOG.error("{}: FATAL: cannot decode the committed log entry {} ({}); the log is corrupt or was "
                        + "written by a newer Regina. Stopping this node.", this, TermIndex.valueOf(logEntry),
                        e.getMessage(), e);
                throw e;
            }
        }
        long started = System.nanoTime();
        List<Result> results = new ArrayList<>(entry.commands().size());
        List<String> deliverable;
        int behind;
        long timerDue;
        lock.writeLock().lock();
        try {
            long now = Math.max(entry.now(), lastNow);
            lastNow = now;
            for (Command command : entry.commands()) {
                results.add(applyOne(command, now, logEntry));
            }
            updateLastAppliedTermIndex(logEntry.getTerm(), logEntry.getIndex());
            snapshotPace.logged(logEntry.getStateMachineLogEntry().getLogData().size());
            deliverable = adapter.drainDeliverable(state);
            timerDue = adapter.nextTimerDue(state);
            behind = adapter.behind(state);
            if (behind > MAX_BEHIND) {
                catchUpExcess(behind - MAX_BEHIND, logEntry);
            }
        } finally {
            lock.writeLock().unlock();
        }
        lastApplied = System.nanoTime();
        metrics.recordApply(entry.commands().size(), System.nanoTime() - started);
        if (behind > 0) {
            catchUp.wake();
        }
        notifyDeliverable(deliverable);
        timerListener.accept(timerDue);
        StateMachineLogEntryProto submitted = logEntry.getStateMachineLogEntry();
        if (localAnswers.answer(submitted.getClientId(), submitted.getCallId(), results)) {
            return CompletableFuture.completedFuture(Message.EMPTY);
        }
        byte[] reply = EntryCodec.encodeResults(results);
        return CompletableFuture.completedFuture(Message.valueOf(UnsafeByteOperations.unsafeWrap(reply)));
    }

    /**
     * Business rules never throw; a throw is a domain bug. It is answered as a rejection rather
     * than stopping the node: apply is deterministic, so every replica does the same.
     */
    private Result applyOne(Command command, long now, LogEntryProto logEntry) {
        try {
            return adapter.apply(state, command, now);
        } catch (RuntimeException e) {
            metrics.recordApplyError();
            LOG.error("{}: applying {} at {} threw; answering a rejection. This is a bug in the domain.",
                    this, command.getClass().getSimpleName(), TermIndex.valueOf(logEntry), e);
            return Rejection.APPLY_FAILED.reject(command.getClass().getSimpleName(), e.getMessage());
        }
    }

    /** Like {@link #applyOne}: a throw is a domain bug, logged and counted, and the node goes on. */
    private void catchUpExcess(int steps, LogEntryProto logEntry) {
        try {
            adapter.catchUp(state, steps);
        } catch (RuntimeException e) {
            metrics.recordApplyError();
            LOG.error("{}: catching up the state's left-over work after {} threw. This is a bug in the domain.",
                    this, TermIndex.valueOf(logEntry), e);
        }
    }

    private void notifyDeliverable(List<String> queues) {
        if (queues == null || queues.isEmpty() || listeners.isEmpty()) {
            return;
        }
        for (String queue : queues) {
            for (Consumer<String> listener : listeners) {
                try {
                    listener.accept(queue);
                } catch (RuntimeException e) {
                    LOG.warn("{}: a deliverable listener failed for queue {}", this, queue, e);
                }
            }
        }
    }

    // ------------------------------------------------------------------ read path

    /**
     * Runs a read-only query against the applied state under the read lock. A query that needs the
     * left-over work done (a text search of a lagging failed-jobs index, {@link FailedJobs.IndexBehind})
     * runs again once it is; other queries never wait for it.
     */
    public <T> T read(Function<S, T> query) {
        lock.readLock().lock();
        try {
            return query.apply(state);
        } catch (FailedJobs.IndexBehind e) {
            // Not answered: read again below, caught up.
        } finally {
            lock.readLock().unlock();
        }
        catchUpThenHoldReadLock();
        try {
            return query.apply(state);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Does the left-over work in slices, and takes the read lock before letting go of the write lock
     * after the last one, so that no apply leaves new work between it and the read.
     */
    private void catchUpThenHoldReadLock() {
        while (true) {
            yieldToWaiters();
            lock.writeLock().lock();
            try {
                if (!adapter.catchUp(state, CATCH_UP_SLICE)) {
                    lock.readLock().lock();
                    return;
                }
            } finally {
                lock.writeLock().unlock();
            }
        }
    }

    /**
     * One slice of the left-over work for {@link BackgroundCatchUp}, once applies have paused for
     * {@value #APPLIES_PAUSED_NANOS} ns (while they keep coming it would only take CPU and the lock from
     * them); whether some is still left.
     */
    private boolean catchUpSlice() {
        long paused = System.nanoTime() - lastApplied;
        if (paused < APPLIES_PAUSED_NANOS) {
            LockSupport.parkNanos(APPLIES_PAUSED_NANOS - paused);
            return true;
        }
        yieldToWaiters();
        lock.writeLock().lock();
        try {
            return adapter.catchUp(state, CATCH_UP_SLICE);
        } catch (RuntimeException e) {
            // A domain bug; reads and the apply thread still catch up (and meet it) themselves.
            LOG.error("{}: catching up the state's left-over work threw", this, e);
            return false;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * The lock is not fair: a thread that lets it go and takes it again at once would often get it
     * back before the apply it woke. Catching up lets the threads queued for it go first.
     */
    private void yieldToWaiters() {
        for (int i = 0; i < 1_000 && lock.hasQueuedThreads(); i++) {
            Thread.yield();
        }
    }

    /** When the applied state next needs a tick (epoch ms), or {@code Long.MAX_VALUE}. */
    public long nextTimerDue() {
        return read(adapter::nextTimerDue);
    }

    /** Whether the state wants a tick every tick interval ({@link StateAdapter#needsRegularTicks}). */
    public boolean needsRegularTicks() {
        return read(adapter::needsRegularTicks);
    }

    /**
     * Told the state's earliest timer (epoch ms, {@code Long.MAX_VALUE} for none) after each entry, on the apply
     * thread, outside the lock; it must not block. One listener: the node's {@link LeaderTicker}.
     */
    void onTimerDue(LongConsumer listener) {
        timerListener = Objects.requireNonNull(listener);
    }

    /** Listeners run on the apply thread after each entry, outside the lock; they must not block. */
    public void onDeliverable(Consumer<String> listener) {
        listeners.add(Objects.requireNonNull(listener));
    }

    // ------------------------------------------------------------------ snapshots

    @Override
    public long takeSnapshot() throws IOException {
        return snapshots.take(stopping(), this::captureSnapshot);
    }

    /** Whether the server is closing: the snapshot Ratis takes then is what the next start loads. */
    private boolean stopping() {
        RaftServer server = getServer().getNow(null);
        if (server == null) {
            return true;
        }
        try {
            return !server.getDivision(getGroupId()).getInfo().isAlive();
        } catch (IOException e) {
            return true;
        }
    }

    /** The state at the applied index, serialised into memory under the read lock; null before any apply. */
    private SnapshotWriter.Captured captureSnapshot() {
        long started = System.nanoTime();
        lock.readLock().lock();
        try {
            TermIndex applied = getLastAppliedTermIndex();
            if (applied == null || applied.getIndex() < 0) {
                return null;
            }
            long now = lastNow;
            S current = state;
            ByteSink image = ByteSink.chunked();
            Consumer<StateWriter> rest;
            try {
                rest = adapter.captureTo(current, image);
            } catch (OutOfMemoryError full) {
                // the image is a copy of the state, and a heap the state nearly fills has no room for it: its
                // pieces are garbage now, the state is untouched (read under the lock) and the log keeps every
                // entry since the last snapshot. Thrown on, Ratis' apply thread would stop and the broker with it.
                snapshotPace.deferred();
                LOG.warn("{}: snapshot at index {} skipped, no room on the heap for a copy of the state; the log "
                        + "keeps its entries and the next try waits for as much log again", this, applied.getIndex());
                return null;
            }
            snapshotPace.captured();
            long captured = System.nanoTime();
            return new SnapshotWriter.Captured() {
                @Override
                public long index() {
                    return applied.getIndex();
                }

                @Override
                public void write() throws IOException {
                    rest.accept(image);
                    writeSnapshot(applied, now, image, started, captured);
                }
            };
        } finally {
            lock.readLock().unlock();
        }
    }

    private void writeSnapshot(TermIndex applied, long now, ByteSink image, long started, long captured)
            throws IOException {
        File file = storage.getSnapshotFile(applied.getTerm(), applied.getIndex());
        SnapshotCodec.write(file.toPath(), applied.getTerm(), applied.getIndex(), now, image);
        var md5 = MD5FileUtil.computeAndSaveMd5ForFile(file);
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file.toPath(), md5), applied));
        snapshotPace.written(file.length());
        long written = System.nanoTime();
        metrics.recordSnapshot(written - started, file.length());
        LOG.info("{}: took snapshot {} ({} bytes; captured in {} ms on the apply thread, written in {} ms)", this,
                file, file.length(), (captured - started) / 1_000_000, (written - captured) / 1_000_000);
    }

    @Override
    public void close() throws IOException {
        catchUp.close();
        snapshots.close();
        super.close();
    }

    /** The index of the newest snapshot on disk, or -1. */
    public long latestSnapshotIndex() {
        SingleFileSnapshotInfo info = storage.getLatestSnapshot();
        return info == null ? RaftLog.INVALID_LOG_INDEX : info.getIndex();
    }

    /** The largest entry time applied so far (the state machine's monotonic clock). */
    public long lastNow() {
        lock.readLock().lock();
        try {
            return lastNow;
        } finally {
            lock.readLock().unlock();
        }
    }
}
