package io.regina.api;

import io.regina.queue.Views;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code GET /api/v1/messages}: look a message up by id or transactionId, or browse a partition. */
@RestController
class MessageController {
    private final Broker broker;

    MessageController(Broker broker) {
        this.broker = broker;
    }

    @GetMapping("/api/v1/messages")
    Map<String, Object> messages(@RequestParam(required = false) String id,
                                 @RequestParam(required = false) String queue,
                                 @RequestParam(defaultValue = "Default") String partition,
                                 @RequestParam(defaultValue = "0") long from,
                                 @RequestParam(defaultValue = "100") int limit) {
        if (limit < 1 || limit > 1000) {
            throw ApiException.badRequest("'limit' must be between 1 and 1000");
        }
        List<Views.MessageView> found;
        if (id != null && !id.isEmpty()) {
            found = broker.read(s -> s.findMessages(id, limit));
        } else if (queue != null && !queue.isEmpty()) {
            found = broker.read(s -> s.browse(queue, partition, from, limit));
        } else {
            throw ApiException.badRequest("Give 'id' (a message id or transactionId) or 'queue' (and 'partition')");
        }
        List<Map<String, Object>> messages = new ArrayList<>();
        for (Views.MessageView m : found) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("id", m.id());
            json.put("transactionId", m.transactionId());
            json.put("traceId", m.traceId());
            json.put("queue", m.queue());
            json.put("partition", m.partition());
            json.put("partitionId", m.partitionId());
            json.put("data", m.data());
            json.put("producerSub", m.producerSub());
            json.put("createdAt", Times.iso(m.createdAt()));
            json.put("offset", m.seq());
            json.put("status", m.status());
            messages.add(json);
        }
        return Map.of("messages", messages);
    }
}
