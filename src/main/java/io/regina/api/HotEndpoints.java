package io.regina.api;

import io.regina.api.dto.AckBatchRequest;
import io.regina.api.dto.AckRequest;
import io.regina.api.dto.PushRequest;
import io.regina.api.dto.TransactionRequest;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The hot endpoints, written once: push, pop by queue and by partition, ack, ack/batch, ack-then-pop and
 * transaction, each a method, a path pattern and what it answers. {@link HotConnection} serves them
 * straight from Netty's pipeline; {@link HotRoutes} serves them as functional routes for every request
 * it leaves to Spring.
 */
@Component
final class HotEndpoints {

    /** What an endpoint does with a request whose path matched, given the path's variables. */
    @FunctionalInterface
    interface Serve {
        Mono<? extends ResponseEntity<?>> serve(HotRequest request, Map<String, String> variables);
    }

    record Endpoint(HttpMethod method, String pattern, Serve serve) {
    }

    private final List<Endpoint> all;

    HotEndpoints(PushController push, PopController pop, AckThenPop ackThenPop, TransactionController transaction,
                 NextPops nextPops) {
        Serve ackAndPop = (request, variables) -> request.body(AckBatchRequest.class, "ack and pop")
                .flatMap(body -> ackThenPop.ackThenPop(variables.get("queue"), variables.get("partition"),
                        request.query(), body))
                .map(Answers::ok);
        this.all = List.of(
                post("/api/v1/push", PushRequest.class, "push", (request, body) ->
                        push.push(body).map(Answers::created)),
                post("/api/v1/ack", AckRequest.class, "ack", (request, body) ->
                        nextPops.ack(request.nextPopSlot(), List.of(AckItems.read(body, null))).map(Answers::ok)),
                post("/api/v1/ack/batch", AckBatchRequest.class, "ack batch", (request, body) ->
                        nextPops.ack(request.nextPopSlot(), AckController.items(body)).map(Answers::ok)),
                new Endpoint(HttpMethod.POST, "/api/v1/ack/pop/queue/{queue}", ackAndPop),
                new Endpoint(HttpMethod.POST, "/api/v1/ack/pop/queue/{queue}/partition/{partition}", ackAndPop),
                post("/api/v1/transaction", TransactionRequest.class, "transaction", (request, body) ->
                        transaction.transaction(body).map(Answers::ok)),
                new Endpoint(HttpMethod.GET, "/api/v1/pop/queue/{queue}", (request, variables) -> {
                    String queue = variables.get("queue");
                    Map<String, String> query = request.query();
                    return nextPops.pop(request.nextPopSlot(), new NextPops.Shape(queue, null, query),
                            () -> pop.popQueue(queue, query));
                }),
                new Endpoint(HttpMethod.GET, "/api/v1/pop/queue/{queue}/partition/{partition}", (request, variables) -> {
                    String queue = variables.get("queue");
                    String partition = variables.get("partition");
                    Map<String, String> query = request.query();
                    return nextPops.pop(request.nextPopSlot(), new NextPops.Shape(queue, partition, query),
                            () -> pop.popPartition(queue, partition, query));
                }));
    }

    List<Endpoint> all() {
        return all;
    }

    /** No Accept header, or one that takes JSON (a list with it, a wildcard). */
    static boolean acceptsJson(List<MediaType> accepted) {
        return accepted.isEmpty()
                || accepted.stream().anyMatch(type -> type.isCompatibleWith(MediaType.APPLICATION_JSON));
    }

    /** An endpoint that binds the body to {@code type} and answers what {@code handler} makes of it. */
    private <T> Endpoint post(String pattern, Class<T> type, String what,
                              BiFunction<HotRequest, T, Mono<? extends ResponseEntity<?>>> handler) {
        return new Endpoint(HttpMethod.POST, pattern,
                (request, variables) -> request.body(type, what).flatMap(body -> handler.apply(request, body)));
    }
}
