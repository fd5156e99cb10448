package io.regina.api;

import io.regina.queue.BrokerState;
import io.regina.queue.Command;
import io.regina.queue.Result;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code POST /api/v1/traces}: record a trace event for a message; {@code GET} lists recent ones. */
@RestController
class TraceController {
    private final Broker broker;

    TraceController(Broker broker) {
        this.broker = broker;
    }

    @PostMapping("/api/v1/traces")
    Mono<ResponseEntity<Map<String, Object>>> record(@RequestBody(required = false) JsonNode body) {
        JsonFields.object(body, "trace");
        String transactionId = JsonFields.requiredString(body, "transactionId");
        String partitionId = JsonFields.requiredString(body, "partitionId");
        JsonNode data = body.get("data");
        if (data == null || data.isNull()) {
            throw ApiException.badRequest("'data' is required");
        }
        List<String> names = JsonFields.strings(body, "traceNames");
        String eventType = JsonFields.string(body, "eventType", "info");
        String traceId = UuidV7.next();
        Command.RecordTrace command = new Command.RecordTrace(traceId, transactionId, partitionId,
                JsonFields.string(body, "consumerGroup", null), names, eventType, data.toString());
        return broker.submit(command, Result.TraceRecorded.class).map(r -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("success", true);
            json.put("traceId", r.traceId());
            return ResponseEntity.status(HttpStatus.CREATED).body(json);
        });
    }

    @GetMapping("/api/v1/traces")
    Map<String, Object> list(@RequestParam(required = false) String transactionId,
                             @RequestParam(defaultValue = "100") int limit) {
        List<Map<String, Object>> traces = new ArrayList<>();
        for (BrokerState.Trace trace : broker.read(s -> s.traces(transactionId, Math.min(Math.max(limit, 1), 1000)))) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("traceId", trace.traceId());
            json.put("transactionId", trace.transactionId());
            json.put("partitionId", trace.partitionId());
            json.put("consumerGroup", trace.consumerGroup());
            json.put("traceNames", trace.traceNames());
            json.put("eventType", trace.eventType());
            json.put("data", trace.data());
            json.put("createdAt", Times.iso(trace.createdAt()));
            traces.add(json);
        }
        return Map.of("traces", traces);
    }
}
