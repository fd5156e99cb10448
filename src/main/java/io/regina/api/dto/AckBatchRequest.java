package io.regina.api.dto;

import java.util.List;

/** The body of {@code POST /api/v1/ack/batch}; {@code consumerGroup} is the default of every acknowledgement. */
public record AckBatchRequest(List<AckRequest> acknowledgments, String consumerGroup) {
}
