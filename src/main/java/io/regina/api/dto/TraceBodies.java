package io.regina.api.dto;

import tools.jackson.databind.annotation.JsonDeserialize;

import java.util.List;

/** Request and answer bodies of {@code /api/v1/traces}. */
public final class TraceBodies {
    private TraceBodies() {
    }

    /** {@code data} is any JSON, read as its text ({@code "null"} for JSON null). */
    public record TraceRequest(String transactionId, String partitionId,
                               @JsonDeserialize(using = RawJson.class) String data, List<String> traceNames,
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
