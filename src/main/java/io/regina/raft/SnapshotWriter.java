package io.regina.raft;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

import org.apache.ratis.server.raftlog.RaftLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes snapshots on a thread of its own. Ratis takes a snapshot on its apply thread and applies
 * nothing until {@code takeSnapshot} returns, so writing, fsyncing and checksumming the image there held
 * every write of the broker each time the log crossed the snapshot threshold: about a second with a
 * million failed rows (a 340 MB image), and longer as the state grows. The image is still captured on
 * the apply thread, because it must be the state at one applied index; the write happens here.
 *
 * <p>Ratis must not hear of a snapshot before it is on disk, since it purges the log up to the index it
 * is told. So {@link #take} answers "none taken" ({@value RaftLog#INVALID_LOG_INDEX}) when it starts a
 * write or while one runs, and the written index at the first call after it is done; Ratis keeps calling
 * while the log is past the threshold. When asked to wait (the server is stopping: the snapshot it takes
 * then is what a restart loads) it finishes the write in flight and writes the new one before answering.
 * Otherwise it captures only when the snapshot is {@code due} ({@link SnapshotPace}).
 */
final class SnapshotWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotWriter.class);

    /** A captured image at an applied index, to be written. */
    interface Captured {
        long index();

        void write() throws IOException;
    }

    /** Captures the state as it is applied now, on the calling thread; null when nothing is applied yet. */
    interface Capture {
        Captured capture() throws IOException;
    }

    private final ExecutorService thread;
    /** The index of the newest snapshot on disk, or -1. */
    private final LongSupplier onDisk;
    private final BooleanSupplier due;
    private CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);
    /** The newest index this writer answered Ratis with. */
    private long answered = RaftLog.INVALID_LOG_INDEX;

    SnapshotWriter(String name, LongSupplier onDisk, BooleanSupplier due) {
        this.onDisk = onDisk;
        this.due = due;
        this.thread = Executors.newSingleThreadExecutor(runnable -> {
            Thread t = new Thread(runnable, name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * One call of Ratis' {@code takeSnapshot}: the index of a snapshot now on disk that Ratis has not
     * been told of, or -1 after starting a write (or while one runs); with {@code wait}, the index of a
     * snapshot of the current state, written before it returns.
     */
    synchronized long take(boolean wait, Capture capture) throws IOException {
        if (!inFlight.isDone()) {
            if (!wait) {
                return RaftLog.INVALID_LOG_INDEX;
            }
            awaitInFlight();
        }
        long written = onDisk.getAsLong();
        if (!wait && written > answered) {
            return answer(written);
        }
        if (!wait && !due.getAsBoolean()) {
            return RaftLog.INVALID_LOG_INDEX;
        }
        Captured image = capture.capture();
        if (image == null) {
            return RaftLog.INVALID_LOG_INDEX;
        }
        if (wait) {
            image.write();
            return answer(image.index());
        }
        inFlight = CompletableFuture.runAsync(() -> {
            try {
                image.write();
            } catch (IOException | RuntimeException e) {
                LOG.error("snapshot at index {} not written; tried again at Ratis' next call", image.index(), e);
            }
        }, thread);
        return RaftLog.INVALID_LOG_INDEX;
    }

    private long answer(long index) {
        answered = Math.max(answered, index);
        return index;
    }

    /** Returns once no write is in flight (before a snapshot from the leader replaces the files). */
    synchronized void awaitInFlight() {
        try {
            inFlight.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            // logged by the write itself
        }
    }

    @Override
    public synchronized void close() {
        awaitInFlight();
        thread.shutdown();
    }
}
