package io.regina.api;

import io.regina.api.dto.AckRequest;
import io.regina.queue.AckStatus;
import io.regina.queue.Command;

import java.util.ArrayList;
import java.util.List;

/** Turns acknowledgements (of an ack, a batch or a transaction) into commands, refusing bad fields. */
final class AckItems {
    private AckItems() {
    }

    /** A batch's acknowledgements, each refused with its place; {@code group} is the batch's default. */
    static List<Command.AckItem> read(List<AckRequest> acknowledgments, String group) {
        List<Command.AckItem> items = new ArrayList<>(acknowledgments.size());
        for (int index = 0; index < acknowledgments.size(); index++) {
            try {
                AckRequest ack = acknowledgments.get(index);
                if (ack == null) {
                    throw JsonBodies.notAnObject("acknowledgment");
                }
                items.add(read(ack, group));
            } catch (ApiException e) {
                throw ApiException.badRequest("acknowledgments[" + index + "]: " + e.getMessage());
            }
        }
        return items;
    }

    /** One acknowledgement; {@code defaultGroup} (may be null) is for one that names no consumerGroup. */
    static Command.AckItem read(AckRequest ack, String defaultGroup) {
        if (ack.transactionId() == null || ack.transactionId().isEmpty()
                || ack.partitionId() == null || ack.partitionId().isEmpty()) {
            throw ApiException.badRequest("'transactionId' and 'partitionId' are required (take them from the "
                    + "popped message)");
        }
        AckStatus status = AckStatus.parse(ack.status()).orElseThrow(() -> ApiException.badRequest(
                "'status' must be one of completed, failed, dlq, retry, release; got '" + ack.status() + "'"));
        long delayMs = Math.max(orZero(ack.delayMs()), orZero(ack.retryAfterMs()));
        if (delayMs < 0) {
            throw ApiException.badRequest("'delayMs' and 'retryAfterMs' must not be negative");
        }
        return new Command.AckItem(ack.transactionId(), ack.partitionId(), status, ack.error(),
                ack.consumerGroup() == null ? defaultGroup : ack.consumerGroup(), ack.leaseId(), delayMs);
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }
}
