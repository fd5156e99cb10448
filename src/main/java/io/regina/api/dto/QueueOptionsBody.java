package io.regina.api.dto;

/**
 * Queue options on the wire, read and written: all fifteen of Queen's plus {@code stripes}. Read, an
 * absent option is null (its default); written, every option is there.
 */
public record QueueOptionsBody(Long leaseTime, Long maxSize, Long ttl, Long retryLimit, Long retryDelay,
                               Boolean deadLetterQueue, Boolean dlqAfterMaxRetries, Long priority,
                               Long delayedProcessing, Long windowBuffer, Long retentionSeconds,
                               Long completedRetentionSeconds, Boolean retentionEnabled, Boolean encryptionEnabled,
                               Long maxWaitTimeSeconds, Long stripes) {
}
