package io.regina.api;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

import java.io.File;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Turns pushes away with 507 {@code DISK_FULL} while the data directory has less free space than
 * its reserve, so the Raft log never meets a full disk: Ratis closes a log whose write failed, and
 * the node then refuses every write, pops and acks included, until it is restarted. What the reserve
 * keeps is for what drains the queue (pops, acks, leases, the leader's ticks) and for snapshots.
 * The file system is asked (one statfs) at most every {@link #RECHECK_NANOS}, so a push costs no
 * system call, and space freed shows within that time. Checked before a push enters the log.
 */
@Component
class DiskReserve {

    static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final File dir;
    private final long reserveBytes;
    private final LongSupplier nanoClock;
    private volatile long checkedAt;
    private volatile long usableBytes = Long.MAX_VALUE;

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
        if (reserveBytes > 0 && usable() < reserveBytes) {
            throw ApiException.of(HttpStatus.INSUFFICIENT_STORAGE, ApiCode.DISK_FULL, "The broker's data directory "
                    + "has " + (usableBytes >> 20) + " MiB free, under its reserve of " + (reserveBytes >> 20)
                    + " MiB (regina.disk.reserve-bytes): new messages are refused until space is freed; "
                    + "pops and acks still work");
        }
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
