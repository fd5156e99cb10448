package io.regina.raft;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;

/**
 * Ratis' single-file snapshot storage, except that old snapshots are looked for only once a newer one is
 * on disk. Ratis cleans up after every call of {@code takeSnapshot}, and it calls after every applied
 * batch while the log is past its threshold, also when the state machine answers "none taken" ({@link
 * SnapshotWriter} while a write runs, {@link SnapshotPace} while a large state is not worth a capture
 * yet). Each cleanup lists the directory and reads every snapshot's MD5 file: in a profile of pushes into a
 * growing queue that was 40% of the apply thread's CPU (issue 8, docs/benchmarks.md session 17).
 */
final class SnapshotStorage extends SimpleStateMachineStorage {

    /** The newest snapshot recorded (a written one, or the newest found on disk at start). */
    private final AtomicLong newest = new AtomicLong(RaftLog.INVALID_LOG_INDEX);
    /** The newest snapshot when the last cleanup ran. */
    private volatile long cleanedFor = RaftLog.INVALID_LOG_INDEX;

    @Override
    public void init(RaftStorage raftStorage) throws IOException {
        super.init(raftStorage);
        // a restart cleans up once, after what the last run left (its newest snapshot, found by the scan above)
        cleanedFor = RaftLog.INVALID_LOG_INDEX - 1;
    }

    @Override
    public SingleFileSnapshotInfo updateLatestSnapshot(SingleFileSnapshotInfo info) {
        SingleFileSnapshotInfo latest = super.updateLatestSnapshot(info);
        if (latest != null) {
            newest.accumulateAndGet(latest.getIndex(), Math::max);
        }
        return latest;
    }

    @Override
    public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) throws IOException {
        long latest = newest.get();
        if (latest == cleanedFor) {
            return;
        }
        super.cleanupOldSnapshots(policy);
        cleanedFor = latest;
    }
}
