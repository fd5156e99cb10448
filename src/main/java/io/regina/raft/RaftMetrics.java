package io.regina.raft;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Plain counters of the Raft layer; {@code config} exposes them to Micrometer. All methods are
 * thread-safe and cheap. Durations are in nanoseconds.
 */
public final class RaftMetrics {

    // group committer (the node that submits)
    private final LongAdder entriesSubmitted = new LongAdder();
    private final LongAdder commandsSubmitted = new LongAdder();
    private final AtomicLong maxCommandsPerEntry = new AtomicLong();
    private final LongAdder entriesForwarded = new LongAdder();
    private final LongAdder entriesFailed = new LongAdder();
    private final LongAdder commitNanosTotal = new LongAdder();
    private final LongAdder commitCount = new LongAdder();
    private final AtomicLong commitNanosMax = new AtomicLong();

    // state machine (every replica)
    private final LongAdder entriesApplied = new LongAdder();
    private final LongAdder commandsApplied = new LongAdder();
    private final LongAdder applyNanosTotal = new LongAdder();
    private final AtomicLong applyNanosMax = new AtomicLong();
    private final LongAdder applyErrors = new LongAdder();
    private final LongAdder snapshotsTaken = new LongAdder();
    private final AtomicLong lastSnapshotNanos = new AtomicLong();
    private final AtomicLong lastSnapshotBytes = new AtomicLong();

    void recordEntrySubmitted(int commands) {
        entriesSubmitted.increment();
        commandsSubmitted.add(commands);
        maxCommandsPerEntry.accumulateAndGet(commands, Math::max);
    }

    void recordEntryForwarded() {
        entriesForwarded.increment();
    }

    void recordEntryFailed() {
        entriesFailed.increment();
    }

    void recordCommit(long nanos) {
        commitNanosTotal.add(nanos);
        commitCount.increment();
        commitNanosMax.accumulateAndGet(nanos, Math::max);
    }

    void recordApply(int commands, long nanos) {
        entriesApplied.increment();
        commandsApplied.add(commands);
        applyNanosTotal.add(nanos);
        applyNanosMax.accumulateAndGet(nanos, Math::max);
    }

    void recordApplyError() {
        applyErrors.increment();
    }

    void recordSnapshot(long nanos, long bytes) {
        snapshotsTaken.increment();
        lastSnapshotNanos.set(nanos);
        lastSnapshotBytes.set(bytes);
    }

    /** Log entries this node submitted (each one Raft append). */
    public long entriesSubmitted() {
        return entriesSubmitted.sum();
    }

    /** Commands this node submitted, across all its entries. */
    public long commandsSubmitted() {
        return commandsSubmitted.sum();
    }

    /** Mean commands per submitted entry (0 before the first entry). */
    public double commandsPerEntry() {
        long entries = entriesSubmitted();
        return entries == 0 ? 0 : (double) commandsSubmitted() / entries;
    }

    public long maxCommandsPerEntry() {
        return maxCommandsPerEntry.get();
    }

    /** Entries sent to a remote leader because this node was not the leader. */
    public long entriesForwarded() {
        return entriesForwarded.sum();
    }

    /** Entries whose submission failed (every caller in it got the exception). */
    public long entriesFailed() {
        return entriesFailed.sum();
    }

    /** Submit-to-reply time of entries (replicate + fsync + apply), total. */
    public long commitNanosTotal() {
        return commitNanosTotal.sum();
    }

    public long commitCount() {
        return commitCount.sum();
    }

    public long commitNanosMax() {
        return commitNanosMax.get();
    }

    /** Entries applied by this replica's state machine. */
    public long entriesApplied() {
        return entriesApplied.sum();
    }

    public long commandsApplied() {
        return commandsApplied.sum();
    }

    /** Time spent applying entries to the state (under the write lock), total. */
    public long applyNanosTotal() {
        return applyNanosTotal.sum();
    }

    public long applyCount() {
        return entriesApplied.sum();
    }

    public long applyNanosMax() {
        return applyNanosMax.get();
    }

    /** Commands whose apply threw (a domain bug; answered with a rejection). */
    public long applyErrors() {
        return applyErrors.sum();
    }

    public long snapshotsTaken() {
        return snapshotsTaken.sum();
    }

    public long lastSnapshotNanos() {
        return lastSnapshotNanos.get();
    }

    public long lastSnapshotBytes() {
        return lastSnapshotBytes.get();
    }
}
