package io.regina.api.dto;

import java.util.List;

/** The answer of {@code GET /api/v1/messages}; {@code data} is the stored JSON text, written as a string. */
public record MessageList(List<Message> messages) {
    public record Message(String id, String transactionId, String traceId, String queue, String partition,
                          String partitionId, String data, String producerSub, String createdAt, long offset,
                          String status) {
    }
}
