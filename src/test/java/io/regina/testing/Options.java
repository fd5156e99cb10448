package io.regina.testing;

import io.regina.queue.QueueOptions;

/** A readable builder for {@link QueueOptions}: start from the defaults and change what a test is about. */
public final class Options {
    private int leaseTime;
    private int maxSize;
    private int ttl;
    private int retryLimit;
    private int retryDelay;
    private boolean deadLetterQueue;
    private boolean dlqAfterMaxRetries;
    private int priority;
    private int delayedProcessing;
    private int windowBuffer;
    private int retentionSeconds;
    private int completedRetentionSeconds;
    private boolean retentionEnabled;
    private boolean encryptionEnabled;
    private int maxWaitTimeSeconds;
    private int stripes;

    private Options(QueueOptions o) {
        leaseTime = o.leaseTime();
        maxSize = o.maxSize();
        ttl = o.ttl();
        retryLimit = o.retryLimit();
        retryDelay = o.retryDelay();
        deadLetterQueue = o.deadLetterQueue();
        dlqAfterMaxRetries = o.dlqAfterMaxRetries();
        priority = o.priority();
        delayedProcessing = o.delayedProcessing();
        windowBuffer = o.windowBuffer();
        retentionSeconds = o.retentionSeconds();
        completedRetentionSeconds = o.completedRetentionSeconds();
        retentionEnabled = o.retentionEnabled();
        encryptionEnabled = o.encryptionEnabled();
        maxWaitTimeSeconds = o.maxWaitTimeSeconds();
        stripes = o.stripes();
    }

    public static Options options() {
        return new Options(QueueOptions.defaults());
    }

    public Options leaseTime(int seconds) {
        leaseTime = seconds;
        return this;
    }

    public Options maxSize(int value) {
        maxSize = value;
        return this;
    }

    public Options retryLimit(int value) {
        retryLimit = value;
        return this;
    }

    public Options priority(int value) {
        priority = value;
        return this;
    }

    public Options delayedProcessing(int seconds) {
        delayedProcessing = seconds;
        return this;
    }

    public Options windowBuffer(int seconds) {
        windowBuffer = seconds;
        return this;
    }

    public Options retentionSeconds(int seconds) {
        retentionSeconds = seconds;
        retentionEnabled = true;
        return this;
    }

    public Options completedRetentionSeconds(int seconds) {
        completedRetentionSeconds = seconds;
        return this;
    }

    public Options retentionEnabled(boolean value) {
        retentionEnabled = value;
        return this;
    }

    public Options maxWaitTimeSeconds(int seconds) {
        maxWaitTimeSeconds = seconds;
        return this;
    }

    public Options stripes(int value) {
        stripes = value;
        return this;
    }

    public Options deadLetterQueue(boolean value) {
        deadLetterQueue = value;
        return this;
    }

    public QueueOptions build() {
        return new QueueOptions(leaseTime, maxSize, ttl, retryLimit, retryDelay, deadLetterQueue,
                dlqAfterMaxRetries, priority, delayedProcessing, windowBuffer, retentionSeconds,
                completedRetentionSeconds, retentionEnabled, encryptionEnabled, maxWaitTimeSeconds, stripes);
    }
}
