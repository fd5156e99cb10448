package io.regina.api;

import io.regina.api.dto.ErrorResponse;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The hot endpoints (push, pop by queue and by partition, ack, ack/batch) served as functional routes,
 * ahead of the annotated controllers: the same controller methods validate and answer, but the answer
 * is written to JSON bytes here with the application's {@link JsonMapper}, skipping per-request handler
 * method resolution, argument resolvers and content negotiation. Only the plain case takes this path
 * (a JSON body, no Accept or one that takes JSON); anything else falls through to the annotated
 * controllers unchanged. Failures go through the same {@link ApiErrors} mapping.
 */
@Configuration(proxyBeanMethods = false)
class HotRoutes {
    private final JsonMapper json;
    private final ApiErrors errors;

    HotRoutes(JsonMapper json, ApiErrors errors) {
        this.json = json;
        this.errors = errors;
    }

    @Bean
    RouterFunction<ServerResponse> hotApiRoutes(PushController push, PopController pop, AckController ack) {
        RequestPredicate jsonIn = RequestPredicates.contentType(MediaType.APPLICATION_JSON);
        return RouterFunctions.route()
                .POST("/api/v1/push", jsonIn.and(HotRoutes::acceptsJson),
                        request -> body(request, push::push))
                .POST("/api/v1/ack", jsonIn.and(HotRoutes::acceptsJson),
                        request -> body(request, body -> ack.ack(body).map(ResponseEntity::ok)))
                .POST("/api/v1/ack/batch", jsonIn.and(HotRoutes::acceptsJson),
                        request -> body(request, body -> ack.batch(body).map(ResponseEntity::ok)))
                .GET("/api/v1/pop/queue/{queue}", HotRoutes::acceptsJson,
                        request -> answer(() -> pop.popQueue(request.pathVariable("queue"),
                                request.queryParams().toSingleValueMap())))
                .GET("/api/v1/pop/queue/{queue}/partition/{partition}", HotRoutes::acceptsJson,
                        request -> answer(() -> pop.popPartition(request.pathVariable("queue"),
                                request.pathVariable("partition"), request.queryParams().toSingleValueMap())))
                .build();
    }

    /** No Accept header, or one that is plainly JSON or anything: what the annotated route answers as JSON. */
    private static boolean acceptsJson(ServerRequest request) {
        String accept = request.headers().firstHeader(HttpHeaders.ACCEPT);
        return accept == null || accept.equals("*/*") || accept.equals(MediaType.APPLICATION_JSON_VALUE);
    }

    /** Decodes the body as the annotated {@code @RequestBody(required = false) JsonNode} would. */
    private Mono<ServerResponse> body(ServerRequest request, Function<JsonNode, Mono<? extends ResponseEntity<?>>> handler) {
        return request.bodyToMono(JsonNode.class)
                .map(java.util.Optional::of)
                .defaultIfEmpty(java.util.Optional.empty())
                .flatMap(body -> answer(() -> handler.apply(body.orElse(null))))
                .onErrorResume(Exception.class, this::error);
    }

    private Mono<ServerResponse> answer(Supplier<? extends Mono<? extends ResponseEntity<?>>> handler) {
        Mono<? extends ResponseEntity<?>> result;
        try {
            result = handler.get();
        } catch (Exception e) {
            return error(e);
        }
        return result.flatMap(this::write).onErrorResume(Exception.class, this::error);
    }

    private Mono<ServerResponse> error(Exception e) {
        ResponseEntity<ErrorResponse> answer = errors.answer(e);
        return answer == null ? Mono.error(e) : write(answer);
    }

    private Mono<ServerResponse> write(ResponseEntity<?> entity) {
        HttpStatusCode status = entity.getStatusCode();
        Object value = entity.getBody();
        if (value == null) {
            return ServerResponse.status(status).build();
        }
        byte[] bytes = json.writeValueAsBytes(value);
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).contentLength(bytes.length)
                .body((message, context) -> message.writeWith(Mono.just(message.bufferFactory().wrap(bytes))));
    }
}
