package io.regina.api;

import io.regina.api.dto.MessageList;
import io.regina.queue.Views;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.ArrayList;
import java.util.List;

/** {@code GET /api/v1/messages}: look a message up by id or transactionId, or browse a partition. */
@RestController
class MessageController {
    private final Broker broker;

    MessageController(Broker broker) {
        this.broker = broker;
    }

    @GetMapping("/api/v1/messages")
    MessageList messages(@RequestParam(required = false) String id,
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
        List<MessageList.Message> messages = new ArrayList<>(found.size());
        for (Views.MessageView m : found) {
            messages.add(new MessageList.Message(m.id(), m.transactionId(), m.traceId(), m.queue(), m.partition(),
                    m.partitionId(), m.data(), m.producerSub(), Times.iso(m.createdAt()), m.seq(), m.status()));
        }
        return new MessageList(messages);
    }
}
