package io.regina.raft;

/**
 * Whether a snapshot is worth its capture yet, past Ratis' entry threshold: once the log applied since
 * the capture of the snapshot on disk holds at least as many bytes as that snapshot's image. A capture
 * costs the whole state, on the apply thread, every time; at a fixed number of entries that cost grew
 * with the state (a million ready partitions: the whole image every 10,000 pops), while here it stays in
 * proportion to what was logged, as Redis rewrites its AOF once it has doubled. What a restart replays is
 * bounded the same way: about one image's worth of log past the snapshot it loads.
 *
 * <p>{@link #logged}, {@link #captured} and {@link #due} run on the apply thread; {@link #written} on the
 * snapshot writer's. A capture whose write failed moves nothing: the next call captures again; a capture the
 * heap had no room for waits for as much log again ({@link #deferred}).
 */
final class SnapshotPace {

    private long loggedBytes;
    private volatile long loggedAtCapture;
    private volatile long loggedAtSnapshotOnDisk;
    private volatile long imageBytes;

    /** An entry of {@code bytes} was applied. */
    void logged(long bytes) {
        loggedBytes += bytes;
    }

    boolean due() {
        return loggedBytes - loggedAtSnapshotOnDisk >= imageBytes;
    }

    /** The state was captured for a snapshot, to be {@link #written}. */
    void captured() {
        loggedAtCapture = loggedBytes;
    }

    /**
     * A capture found no room on the heap for the image (a copy of the state): the next one waits until as
     * much again has been logged, rather than fill the heap again at every entry while the state stays large.
     */
    void deferred() {
        loggedAtSnapshotOnDisk = loggedBytes;
    }

    /** The last capture is on disk as a snapshot of {@code bytes} (or was loaded from one at start). */
    void written(long bytes) {
        imageBytes = bytes;
        loggedAtSnapshotOnDisk = loggedAtCapture;
    }
}
