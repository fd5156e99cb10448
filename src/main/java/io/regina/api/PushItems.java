package io.regina.api;

import io.regina.queue.Command;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** Turns the JSON items of a push (or of a transaction's push) into commands, refusing bad fields. */
final class PushItems {
    private PushItems() {
    }

    static List<Command.PushItem> read(JsonNode items, String producerSub) {
        List<Command.PushItem> parsed = new ArrayList<>(items.size());
        int index = 0;
        for (JsonNode item : items) {
            if (!item.isObject()) {
                throw ApiException.badRequest("items[" + index + "] must be an object");
            }
            parsed.add(readOne(item, index, producerSub));
            index++;
        }
        return parsed;
    }

    private static Command.PushItem readOne(JsonNode item, int index, String producerSub) {
        try {
            String queue = QueueNames.check(JsonFields.requiredString(item, "queue"));
            String partition = JsonFields.string(item, "partition", null);
            if (partition != null) {
                QueueNames.check(partition, "partition");
            }
            JsonNode payload = item.get("payload");
            String json = payload == null ? "{}" : payload.toString();
            String messageId = UuidV7.next();
            String transactionId = JsonFields.string(item, "transactionId", null);
            if (transactionId == null || transactionId.isEmpty()) {
                transactionId = messageId;
            }
            String traceId = JsonFields.uuid(item, "traceId");
            long delayMs = JsonFields.number(item, "delayMs", 0);
            if (delayMs < 0) {
                throw ApiException.badRequest("'delayMs' must not be negative");
            }
            long availableAt = Times.parse(JsonFields.string(item, "availableAt", null), "availableAt");
            return new Command.PushItem(queue, partition, messageId, transactionId, json, traceId, producerSub,
                    delayMs, availableAt);
        } catch (ApiException e) {
            throw ApiException.badRequest("items[" + index + "]: " + e.getMessage());
        }
    }
}
