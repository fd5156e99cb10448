package io.regina.raft;

/**
 * The share of recent time during which at least one log entry was in flight: an exponentially weighted
 * mean whose weight halves every {@code halfLife}. Not thread-safe: {@link GroupCommitter} calls it under
 * its lock, with times from one monotonic clock.
 *
 * <p>It tells the group committer how loaded the log is without a timer or a thread: an idle pipeline
 * reads near 0, entries back to back read near 1.
 */
final class PipelineOccupancy {

    private final double nanosPerEFold;
    private double share;
    private boolean busy;
    private long since;

    PipelineOccupancy(long halfLifeNanos, long now) {
        if (halfLifeNanos <= 0) {
            throw new IllegalArgumentException("half-life must be positive: " + halfLifeNanos);
        }
        this.nanosPerEFold = halfLifeNanos / Math.log(2);
        this.since = now;
    }

    /** Records that from {@code now} on an entry is ({@code true}) or is not in flight. */
    void mark(boolean busyFromNow, long now) {
        share = at(now);
        busy = busyFromNow;
        since = now;
    }

    /** The weighted share of time busy up to {@code now}, between 0 and 1. */
    double at(long now) {
        long elapsed = Math.max(0, now - since);
        double kept = Math.exp(-elapsed / nanosPerEFold);
        return share * kept + (busy ? 1 - kept : 0);
    }
}
