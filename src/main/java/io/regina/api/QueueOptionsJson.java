package io.regina.api;

import io.regina.api.dto.QueueOptionsBody;
import io.regina.queue.QueueOptions;

/** Queue options to and from their wire record: omitted ones at their defaults, each range checked. */
final class QueueOptionsJson {
    private static final int MAX = Integer.MAX_VALUE;

    private QueueOptionsJson() {
    }

    static QueueOptions read(QueueOptionsBody options) {
        QueueOptions d = QueueOptions.defaults();
        if (options == null) {
            return d;
        }
        return new QueueOptions(
                FieldChecks.within("leaseTime", options.leaseTime(), d.leaseTime(), 1, MAX),
                FieldChecks.within("maxSize", options.maxSize(), d.maxSize(), 0, MAX),
                FieldChecks.within("ttl", options.ttl(), d.ttl(), 0, MAX),
                FieldChecks.within("retryLimit", options.retryLimit(), d.retryLimit(), 0, MAX),
                FieldChecks.within("retryDelay", options.retryDelay(), d.retryDelay(), 0, MAX),
                or(options.deadLetterQueue(), d.deadLetterQueue()),
                or(options.dlqAfterMaxRetries(), d.dlqAfterMaxRetries()),
                FieldChecks.within("priority", options.priority(), d.priority(), Integer.MIN_VALUE, MAX),
                FieldChecks.within("delayedProcessing", options.delayedProcessing(), d.delayedProcessing(), 0, MAX),
                FieldChecks.within("windowBuffer", options.windowBuffer(), d.windowBuffer(), 0, MAX),
                FieldChecks.within("retentionSeconds", options.retentionSeconds(), d.retentionSeconds(), 0, MAX),
                FieldChecks.within("completedRetentionSeconds", options.completedRetentionSeconds(),
                        d.completedRetentionSeconds(), 0, MAX),
                or(options.retentionEnabled(), d.retentionEnabled()),
                or(options.encryptionEnabled(), d.encryptionEnabled()),
                FieldChecks.within("maxWaitTimeSeconds", options.maxWaitTimeSeconds(), d.maxWaitTimeSeconds(), 0, MAX),
                FieldChecks.within("stripes", options.stripes(), d.stripes(), 1, QueueOptions.MAX_STRIPES));
    }

    static QueueOptionsBody write(QueueOptions o) {
        return new QueueOptionsBody((long) o.leaseTime(), (long) o.maxSize(), (long) o.ttl(), (long) o.retryLimit(),
                (long) o.retryDelay(), o.deadLetterQueue(), o.dlqAfterMaxRetries(), (long) o.priority(),
                (long) o.delayedProcessing(), (long) o.windowBuffer(), (long) o.retentionSeconds(),
                (long) o.completedRetentionSeconds(), o.retentionEnabled(), o.encryptionEnabled(),
                (long) o.maxWaitTimeSeconds(), (long) o.stripes());
    }

    private static boolean or(Boolean value, boolean fallback) {
        return value == null ? fallback : value;
    }
}
