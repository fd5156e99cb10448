package io.regina.api.dto;

import tools.jackson.databind.JsonNode;

import java.util.List;

/** Request and answer bodies of {@code /api/v1/traces}. */
public final class TraceBodies {
    private TraceBodies() {
    }

    /** {@code data} is any JSON, stored as its text. */
    public record TraceRequest(String transactionId, String partitionId, JsonNode data, List<String> traceNames,
                               String eventType, String consumerGroup) {
    }

    public record Recorded(boolean success, String traceId) {
    }

    public record TraceList(List<Trace> traces) {
    }

    /** A recorded trace; {@code data} is the stored JSON text, written as a string. */
    public record Trace(String traceId, String transactionId, String partitionId, String consumerGroup,
                        List<String> traceNames, String eventType, String data, String createdAt) {
    }
}
