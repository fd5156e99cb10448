package io.regina.queue;

/**
 * The options of a queue: Queen's fifteen plus Regina's {@code stripes}.
 *
 * <p>Configure is an upsert that overwrites every option, so an option that a request omits
 * returns to the default given by {@link #defaults()}.
 */
public record QueueOptions(
        int leaseTime,
        int maxSize,
        int ttl,
        int retryLimit,
        int retryDelay,
        boolean deadLetterQueue,
        boolean dlqAfterMaxRetries,
        int priority,
        int delayedProcessing,
        int windowBuffer,
        int retentionSeconds,
        int completedRetentionSeconds,
        boolean retentionEnabled,
        boolean encryptionEnabled,
        int maxWaitTimeSeconds,
        int stripes) {

    public static final int MAX_STRIPES = 1024;

    public static QueueOptions defaults() {
        return new QueueOptions(300, 0, 3600, 3, 1000, false, false, 0, 0, 0, 0, 0, false, false, 0, 1);
    }

    public long leaseMillis() {
        return leaseTime * 1000L;
    }

    /** Writes every option in declaration order: the layout of snapshots and log entries. */
    public void writeTo(StateWriter out) {
        out.writeInt(leaseTime);
        out.writeInt(maxSize);
        out.writeInt(ttl);
        out.writeInt(retryLimit);
        out.writeInt(retryDelay);
        out.writeBoolean(deadLetterQueue);
        out.writeBoolean(dlqAfterMaxRetries);
        out.writeInt(priority);
        out.writeInt(delayedProcessing);
        out.writeInt(windowBuffer);
        out.writeInt(retentionSeconds);
        out.writeInt(completedRetentionSeconds);
        out.writeBoolean(retentionEnabled);
        out.writeBoolean(encryptionEnabled);
        out.writeInt(maxWaitTimeSeconds);
        out.writeInt(stripes);
    }

    public static QueueOptions readFrom(StateReader in) {
        return new QueueOptions(in.readInt(), in.readInt(), in.readInt(), in.readInt(), in.readInt(),
                in.readBoolean(), in.readBoolean(), in.readInt(), in.readInt(), in.readInt(), in.readInt(),
                in.readInt(), in.readBoolean(), in.readBoolean(), in.readInt(), in.readInt());
    }
}
