package io.regina.api.dto;

import tools.jackson.databind.annotation.JsonDeserialize;

import java.nio.ByteBuffer;
import java.util.List;

/** The body of {@code POST /api/v1/push}. */
public record PushRequest(List<Item> items) {
    /** One message to push; {@code payload} is any JSON, read as its UTF-8 text ({@link PayloadJson}). */
    public record Item(String queue, String partition, @JsonDeserialize(using = PayloadJson.class) ByteBuffer payload,
                       String transactionId, String traceId, Long delayMs, String availableAt) {
    }
}
