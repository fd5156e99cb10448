package io.regina.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.regina.api.dto.AckResponseItem;
import io.regina.queue.AckStatus;
import io.regina.queue.Command;
import io.regina.queue.Result;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** {@code POST /api/v1/ack} and {@code /ack/batch}: one replicated command per request, items in order. */
@RestController
class AckController {
    private final Broker broker;
    private final Counter acked;

    AckController(Broker broker, MeterRegistry meters) {
        this.broker = broker;
        this.acked = Counter.builder("regina.messages.acked").description("Acknowledgements applied")
                .register(meters);
    }

    @PostMapping("/api/v1/ack")
    Mono<List<AckResponseItem>> ack(@RequestBody(required = false) JsonNode body) {
        JsonFields.object(body, "ack");
        return submit(List.of(item(body, null)));
    }

    @PostMapping("/api/v1/ack/batch")
    Mono<List<AckResponseItem>> batch(@RequestBody(required = false) JsonNode body) {
        JsonFields.object(body, "ack batch");
        JsonNode acknowledgments = JsonFields.array(body, "acknowledgments");
        if (acknowledgments == null) {
            throw ApiException.badRequest("'acknowledgments' is required: an array of {transactionId, partitionId, "
                    + "status?, error?, leaseId?}");
        }
        String group = JsonFields.string(body, "consumerGroup", null);
        List<Command.AckItem> items = new ArrayList<>();
        int index = 0;
        for (JsonNode item : acknowledgments) {
            try {
                items.add(item(JsonFields.object(item, "acknowledgment"), group));
            } catch (ApiException e) {
                throw ApiException.badRequest("acknowledgments[" + index + "]: " + e.getMessage());
            }
            index++;
        }
        if (items.isEmpty()) {
            return Mono.just(List.of());
        }
        return submit(items);
    }

    private Mono<List<AckResponseItem>> submit(List<Command.AckItem> items) {
        return broker.submit(new Command.Ack(items), Result.Acked.class).map(result -> {
            List<AckResponseItem> answer = new ArrayList<>(result.outcomes().size());
            for (Result.AckOutcome o : result.outcomes()) {
                answer.add(new AckResponseItem(o.index(), o.transactionId(), o.success(), o.error(), o.queue(),
                        o.partition(), o.leaseReleased(), o.dlq()));
                if (o.success()) {
                    acked.increment();
                }
            }
            return answer;
        });
    }

    /** One acknowledgement; {@code defaultGroup} is a batch's top-level consumerGroup. */
    static Command.AckItem item(JsonNode body, String defaultGroup) {
        String transactionId = JsonFields.string(body, "transactionId", null);
        String partitionId = JsonFields.string(body, "partitionId", null);
        if (transactionId == null || transactionId.isEmpty() || partitionId == null || partitionId.isEmpty()) {
            throw ApiException.badRequest("'transactionId' and 'partitionId' are required (take them from the "
                    + "popped message)");
        }
        String statusText = JsonFields.string(body, "status", null);
        AckStatus status = AckStatus.parse(statusText).orElseThrow(() -> ApiException.badRequest(
                "'status' must be one of completed, failed, dlq, retry, release; got '" + statusText + "'"));
        long delayMs = Math.max(JsonFields.number(body, "delayMs", 0), JsonFields.number(body, "retryAfterMs", 0));
        if (delayMs < 0) {
            throw ApiException.badRequest("'delayMs' and 'retryAfterMs' must not be negative");
        }
        return new Command.AckItem(transactionId, partitionId, status, JsonFields.string(body, "error", null),
                JsonFields.string(body, "consumerGroup", defaultGroup), JsonFields.string(body, "leaseId", null),
                delayMs);
    }
}
