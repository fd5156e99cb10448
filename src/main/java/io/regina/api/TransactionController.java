package io.regina.api;

import io.regina.queue.Command;
import io.regina.queue.Result;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code POST /api/v1/transaction}: pushes and acks as one replicated command, all or nothing. */
@RestController
class TransactionController {
    private final Broker broker;
    private final MemoryWatermark watermark;

    TransactionController(Broker broker, MemoryWatermark watermark) {
        this.broker = broker;
        this.watermark = watermark;
    }

    @PostMapping("/api/v1/transaction")
    Mono<Map<String, Object>> transaction(@RequestBody(required = false) JsonNode body) {
        JsonFields.object(body, "transaction");
        JsonNode operations = JsonFields.array(body, "operations");
        if (operations == null || operations.isEmpty()) {
            throw ApiException.badRequest("'operations' is required: a non-empty array of {type:\"push\", items} "
                    + "or {type:\"ack\", transactionId, partitionId}");
        }
        List<Command.TxOperation> parsed = new ArrayList<>();
        boolean pushes = false;
        int index = 0;
        for (JsonNode operation : operations) {
            try {
                JsonFields.object(operation, "operation");
                String type = JsonFields.string(operation, "type", null);
                if ("push".equals(type)) {
                    JsonNode items = JsonFields.array(operation, "items");
                    if (items == null) {
                        throw ApiException.badRequest("a push operation needs 'items'");
                    }
                    parsed.add(new Command.TxPush(PushItems.read(items, null)));
                    pushes = true;
                } else if ("ack".equals(type)) {
                    parsed.add(new Command.TxAck(AckController.item(operation, null)));
                } else {
                    throw ApiException.badRequest("'type' must be \"push\" or \"ack\"");
                }
            } catch (ApiException e) {
                throw ApiException.badRequest("operations[" + index + "]: " + e.getMessage());
            }
            index++;
        }
        if (pushes) {
            watermark.checkPush();
        }
        String transactionId = UuidV7.next();
        Command.Transaction command = new Command.Transaction(parsed, JsonFields.strings(body, "requiredLeases"));
        return broker.submit(command, Result.TransactionDone.class).map(done -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("transactionId", transactionId);
            json.put("success", done.success());
            if (!done.success()) {
                json.put("error", done.error());
            }
            List<Map<String, Object>> results = new ArrayList<>();
            for (Result.TxOutcome outcome : done.results()) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("index", outcome.index());
                r.put("type", outcome.type());
                r.put("success", outcome.success());
                r.put("transactionId", outcome.transactionId());
                if ("push".equals(outcome.type())) {
                    r.put("messageId", outcome.messageId());
                    r.put("partitionId", outcome.partitionId());
                    r.put("queueName", outcome.queue());
                } else {
                    r.put("error", outcome.error());
                    r.put("dlq", outcome.dlq());
                }
                results.add(r);
            }
            json.put("results", results);
            return json;
        });
    }
}
