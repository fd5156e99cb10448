package io.regina.api.dto;

import tools.jackson.databind.JsonNode;

import java.util.List;

/** The body of {@code POST /api/v1/push}. */
public record PushRequest(List<Item> items) {
    /** One message to push; {@code payload} is any JSON, stored as its text. */
    public record Item(String queue, String partition, JsonNode payload, String transactionId, String traceId,
                       Long delayMs, String availableAt) {
    }
}
