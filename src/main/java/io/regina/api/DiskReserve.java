package io.regina.api;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.io.File;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Turns pushes away with 507 {@code DISK_FULL} while the data directory has less free space than
 * its reserve, so the Raft log never meets a full disk: Ratis closes a log whose write failed, and
 * the node then refuses every write, pops and acks included, until it is restarted. What the reserve
 * keeps is for what drains the queue (pops, acks, leases, the leader's ticks) and for snapshots.
 * The file system is asked (one statfs) at most every {@link #RECHECK_NANOS}, so a push costs no
 * system call, and space freed shows within that time. Checked before a push enters the log.
 *
 * <p>In a cluster one node's disk is every node's limit ({@link io.regina.queue.DiskAlarms}): the
 * {@link DiskAlarmReporter} raises this node's alarm through the log and hands back every node's, and
 * a push is refused here while any is up.
 */
@Component
class DiskReserve {

    static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final File dir;
    private final long reserveBytes;
    private final LongSupplier nanoClock;
    private volatile long checkedAt;
    private volatile long usableBytes = Long.MAX_VALUE;
    private volatile List<String> clusterAlarms = List.of();

    @Autowired
    DiskReserve(@Value("${regina.data-dir:./data}") String dataDir,
            @Value("${regina.disk.reserve-bytes:67108864}") long reserveBytes) {
        this(new File(dataDir), reserveBytes, System::nanoTime);
    }

    DiskReserve(File dir, long reserveBytes, LongSupplier nanoClock) {
        if (reserveBytes < 0) {
            throw new IllegalArgumentException("regina.disk.reserve-bytes cannot be negative, got " + reserveBytes);
        }
        this.dir = dir.getAbsoluteFile();
        this.reserveBytes = reserveBytes;
        this.nanoClock = nanoClock;
        this.checkedAt = nanoClock.getAsLong() - RECHECK_NANOS;
    }

    void checkPush() {
        if (belowReserve()) {
            throw ApiException.of(HttpStatus.INSUFFICIENT_STORAGE, ApiCode.DISK_FULL, "The broker's data directory "
                    + "has " + (usableBytes >> 20) + " MiB free, under its reserve of " + (reserveBytes >> 20)
                    + " MiB (regina.disk.reserve-bytes): new messages are refused until space is freed; "
                    + "pops and acks still work");
        }
        List<String> alarms = clusterAlarms;
        if (!alarms.isEmpty()) {
            throw ApiException.of(HttpStatus.INSUFFICIENT_STORAGE, ApiCode.DISK_FULL, "The data directory of node "
                    + String.join(", ", alarms) + " is under its reserve (regina.disk.reserve-bytes): the cluster "
                    + "refuses new messages until space is freed there; pops and acks still work");
        }
    }

    boolean belowReserve() {
        return reserveBytes > 0 && usable() < reserveBytes;
    }

    /** Every node's disk alarm, as last read from the applied state. */
    void clusterAlarms(List<String> raised) {
        clusterAlarms = List.copyOf(raised);
    }

    private long usable() {
        long now = nanoClock.getAsLong();
        if (now - checkedAt >= RECHECK_NANOS) {
            checkedAt = now;
            long usable = dir.getUsableSpace();
            // 0 is also what a directory that does not exist (yet) answers: not a reason to refuse
            usableBytes = usable == 0 && !dir.exists() ? Long.MAX_VALUE : usable;
        }
        return usableBytes;
    }
}
