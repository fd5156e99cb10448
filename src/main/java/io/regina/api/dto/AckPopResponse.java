package io.regina.api.dto;

import java.util.List;

/**
 * The answer of {@code POST /api/v1/ack/pop/...}: the acknowledgements as {@code /ack/batch} answers them,
 * and the pop as {@code GET /pop/...} answers it, or null when no message came before the timeout.
 */
public record AckPopResponse(List<AckResponseItem> acknowledged, PopResponse pop) {
}
