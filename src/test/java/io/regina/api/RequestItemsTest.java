package io.regina.api;

import io.regina.api.dto.AckRequest;
import io.regina.api.dto.PushRequest;
import io.regina.queue.AckStatus;
import io.regina.queue.Command;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The checks {@link PushItems} and {@link AckItems} make on bound records, with the texts Queen's clients see. */
class RequestItemsTest {
    @Test
    void aPushItemDefaultsItsPayloadAndTransactionId() {
        Command.PushItem item = PushItems.read(List.of(push("q", null, null, null)), null).get(0);
        assertThat(item.queue()).isEqualTo("q");
        assertThat(item.payload()).hasToString("{}");
        assertThat(item.transactionId()).isEqualTo(item.messageId());
    }

    @Test
    void aPushItemIsRefusedWithItsIndex() {
        assertPushRefused(push(null, null, null, null), "items[1]: 'queue' is required (a non-empty string)");
        assertPushRefused(push("", null, null, null), "items[1]: 'queue' is required (a non-empty string)");
        assertPushRefused(push("bad/input", null, null, null),
                "items[1]: 'queue' must not contain '/' or control characters");
        assertPushRefused(push("q", "not-a-uuid", null, null), "items[1]: 'traceId' must be a UUID, got 'not-a-uuid'");
        assertPushRefused(push("q", null, -1L, null), "items[1]: 'delayMs' must not be negative");
        assertPushRefused(push("q", null, null, "soon"),
                "items[1]: 'availableAt' must be an ISO-8601 time such as 2026-01-02T03:04:05Z, got 'soon'");
        assertThatThrownBy(() -> PushItems.read(Arrays.asList(push("q", null, null, null), null), null))
                .hasMessage("items[1] must be an object");
    }

    @Test
    void anAckTakesTheBatchGroupUnlessItNamesOne() {
        Command.AckItem item = AckItems.read(ack("t", "p", null), "g");
        assertThat(item.status()).isEqualTo(AckStatus.parse(null).orElseThrow());
        assertThat(item.group()).isEqualTo("g");
    }

    @Test
    void anAckIsRefusedWithItsIndexInABatch() {
        assertThatThrownBy(() -> AckItems.read(ack("t", null, null), null))
                .hasMessage("'transactionId' and 'partitionId' are required (take them from the popped message)");
        assertThatThrownBy(() -> AckItems.read(List.of(ack("t", "p", "weird")), null))
                .hasMessage("acknowledgments[0]: 'status' must be one of completed, failed, dlq, retry, release; "
                        + "got 'weird'");
        assertThatThrownBy(() -> AckItems.read(Arrays.asList((AckRequest) null), null))
                .hasMessage("acknowledgments[0]: The request body must be a JSON object (acknowledgment)");
    }

    private static PushRequest.Item push(String queue, String traceId, Long delayMs, String availableAt) {
        return new PushRequest.Item(queue, null, null, null, traceId, delayMs, availableAt);
    }

    private static AckRequest ack(String transactionId, String partitionId, String status) {
        return new AckRequest(transactionId, partitionId, status, null, null, null, null, null);
    }

    private static void assertPushRefused(PushRequest.Item item, String message) {
        assertThatThrownBy(() -> PushItems.read(List.of(push("q", null, null, null), item), null))
                .isInstanceOf(ApiException.class).hasMessage(message);
    }
}
