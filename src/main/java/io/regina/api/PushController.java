package io.regina.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.regina.queue.Command;
import io.regina.queue.Result;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code POST /api/v1/push}: one replicated command per request, so a request's messages appear together. */
@RestController
class PushController {
    private final Broker broker;
    private final MemoryWatermark watermark;
    private final Counter pushed;

    PushController(Broker broker, MemoryWatermark watermark, MeterRegistry meters) {
        this.broker = broker;
        this.watermark = watermark;
        this.pushed = Counter.builder("regina.messages.pushed").description("Messages accepted by push")
                .register(meters);
    }

    @PostMapping("/api/v1/push")
    Mono<ResponseEntity<List<Map<String, Object>>>> push(@RequestBody(required = false) JsonNode body) {
        JsonFields.object(body, "push");
        JsonNode items = JsonFields.array(body, "items");
        if (items == null) {
            throw ApiException.badRequest("'items' is required: an array of {queue, partition?, payload?, "
                    + "transactionId?, traceId?}");
        }
        List<Command.PushItem> parsed = PushItems.read(items, null);
        if (parsed.isEmpty()) {
            return Mono.just(ResponseEntity.status(HttpStatus.CREATED).body(List.of()));
        }
        watermark.checkPush();
        return broker.submit(new Command.Push(parsed), Result.Pushed.class).map(result -> {
            List<Map<String, Object>> answer = new ArrayList<>(result.outcomes().size());
            for (Result.PushOutcome outcome : result.outcomes()) {
                answer.add(json(outcome));
                if (outcome.status() == Result.PushStatus.QUEUED) {
                    pushed.increment();
                }
            }
            return ResponseEntity.status(HttpStatus.CREATED).body(answer);
        });
    }

    private static Map<String, Object> json(Result.PushOutcome outcome) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("index", outcome.index());
        json.put("transaction_id", outcome.transactionId());
        switch (outcome.status()) {
            case QUEUED -> {
                json.put("status", "queued");
                json.put("message_id", outcome.messageId());
                json.put("partition_id", outcome.partitionId());
                json.put("trace_id", outcome.traceId());
            }
            case DUPLICATE -> {
                json.put("status", "duplicate");
                json.put("message_id", outcome.messageId());
            }
            case BUFFERED -> {
                json.put("status", "buffered");
                json.put("message_id", outcome.messageId());
                json.put("trace_id", outcome.traceId());
            }
        }
        json.put("queueName", outcome.queue());
        return json;
    }
}
