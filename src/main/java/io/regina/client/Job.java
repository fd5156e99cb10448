package io.regina.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * One message to push (API.md A3 "Push", C1). {@code payload} is any JSON; {@code partition} null is the
 * queue's default (or a stripe); {@code transactionId} null gets a fresh one at push time, so the client's
 * own retries of the push are deduplicated by the broker; {@code delayMs} or {@code availableAt} hold it
 * back (C1).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Job(String queue, String partition, JsonNode payload, String transactionId, String traceId,
                  Long delayMs, String availableAt) {

    /** A message for {@code queue} with {@code payload}, everything else the broker's default. */
    public static Job of(String queue, JsonNode payload) {
        return new Job(queue, null, payload, null, null, null, null);
    }

    public Job partition(String name) {
        return new Job(queue, name, payload, transactionId, traceId, delayMs, availableAt);
    }

    public Job transactionId(String id) {
        return new Job(queue, partition, payload, id, traceId, delayMs, availableAt);
    }

    public Job traceId(String id) {
        return new Job(queue, partition, payload, transactionId, id, delayMs, availableAt);
    }

    public Job delay(Duration delay) {
        return new Job(queue, partition, payload, transactionId, traceId, delay.toMillis(), null);
    }

    public Job availableAt(Instant at) {
        return new Job(queue, partition, payload, transactionId, traceId, null, at.toString());
    }

    /** This job with a transactionId: its own, or a new random one. */
    Job withTransactionId() {
        return transactionId != null ? this : transactionId(UUID.randomUUID().toString());
    }
}
