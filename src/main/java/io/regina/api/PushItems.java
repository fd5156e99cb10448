package io.regina.api;

import io.regina.api.dto.PushRequest;
import io.regina.queue.Command;
import io.regina.queue.Utf8Text;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Turns the items of a push (or of a transaction's push) into commands, refusing bad fields. */
final class PushItems {
    private static final Pattern UUID = Pattern.compile(
            "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$");
    /** The payload of an item that has none. */
    private static final Utf8Text EMPTY_OBJECT = Utf8Text.of("{}");

    private PushItems() {
    }

    static List<Command.PushItem> read(List<PushRequest.Item> items, String producerSub) {
        List<Command.PushItem> parsed = new ArrayList<>(items.size());
        for (int index = 0; index < items.size(); index++) {
            PushRequest.Item item = items.get(index);
            if (item == null) {
                throw ApiException.badRequest("items[" + index + "] must be an object");
            }
            try {
                parsed.add(readOne(item, producerSub));
            } catch (ApiException e) {
                throw ApiException.badRequest("items[" + index + "]: " + e.getMessage());
            }
        }
        return parsed;
    }

    private static Command.PushItem readOne(PushRequest.Item item, String producerSub) {
        String queue = QueueNames.check(FieldChecks.required(item.queue(), "queue"));
        if (item.partition() != null) {
            QueueNames.check(item.partition(), "partition");
        }
        ByteBuffer payload = item.payload();
        Utf8Text json = payload == null ? EMPTY_OBJECT
                : Utf8Text.view(payload.array(), payload.arrayOffset() + payload.position(), payload.remaining());
        String messageId = UuidV7.next();
        String transactionId = item.transactionId() == null || item.transactionId().isEmpty()
                ? messageId : item.transactionId();
        if (item.traceId() != null && !UUID.matcher(item.traceId()).matches()) {
            throw ApiException.badRequest("'traceId' must be a UUID, got '" + item.traceId() + "'");
        }
        long delayMs = item.delayMs() == null ? 0 : item.delayMs();
        if (delayMs < 0) {
            throw ApiException.badRequest("'delayMs' must not be negative");
        }
        long availableAt = Times.parse(item.availableAt(), "availableAt");
        return new Command.PushItem(queue, item.partition(), messageId, transactionId, json, item.traceId(),
                producerSub, delayMs, availableAt);
    }
}
