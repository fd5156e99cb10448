package io.regina.api;

import io.regina.api.dto.TraceBodies;
import io.regina.queue.BrokerState;
import io.regina.queue.Command;
import io.regina.queue.Result;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;

/** {@code POST /api/v1/traces}: record a trace event for a message; {@code GET} lists recent ones. */
@RestController
class TraceController {
    private final Broker broker;

    TraceController(Broker broker) {
        this.broker = broker;
    }

    @PostMapping("/api/v1/traces")
    Mono<ResponseEntity<TraceBodies.Recorded>> record(@JsonBody("trace") TraceBodies.TraceRequest body) {
        String transactionId = FieldChecks.required(body.transactionId(), "transactionId");
        String partitionId = FieldChecks.required(body.partitionId(), "partitionId");
        if (body.data() == null || body.data().equals("null")) {
            throw ApiException.badRequest("'data' is required");
        }
        List<String> names = FieldChecks.strings(body.traceNames(), "traceNames");
        String eventType = body.eventType() == null ? "info" : body.eventType();
        String traceId = UuidV7.next();
        Command.RecordTrace command = new Command.RecordTrace(traceId, transactionId, partitionId,
                body.consumerGroup(), names, eventType, body.data());
        return broker.submit(command, Result.TraceRecorded.class)
                .map(r -> ResponseEntity.status(HttpStatus.CREATED).body(new TraceBodies.Recorded(true, r.traceId())));
    }

    @GetMapping("/api/v1/traces")
    TraceBodies.TraceList list(@RequestParam(required = false) String transactionId,
                               @RequestParam(defaultValue = "100") int limit) {
        List<TraceBodies.Trace> traces = new ArrayList<>();
        for (BrokerState.Trace t : broker.read(s -> s.traces(transactionId, Math.min(Math.max(limit, 1), 1000)))) {
            traces.add(new TraceBodies.Trace(t.traceId(), t.transactionId(), t.partitionId(), t.consumerGroup(),
                    t.traceNames(), t.eventType(), t.data(), Times.iso(t.createdAt())));
        }
        return new TraceBodies.TraceList(traces);
    }
}
