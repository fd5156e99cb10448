package io.regina.api;

import io.regina.api.dto.AckBatchRequest;
import io.regina.api.dto.AckRequest;
import io.regina.api.dto.PushRequest;
import io.regina.api.dto.TransactionRequest;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.reactive.function.server.support.RouterFunctionMapping;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.NotAcceptableStatusException;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The hot endpoints ({@link HotEndpoints}) as functional routes, for the requests {@link HotConnection} leaves
 * to Spring (odd paths, other methods, a client that takes no JSON, API authentication on, and the rare
 * shapes listed there): the body is bound straight from its bytes to its record ({@link JsonBodies}) and the
 * answer written to bytes ({@link AnswerJson}, or the application's {@link JsonMapper}), skipping handler method resolution,
 * argument resolvers and content negotiation. Every other endpoint is an annotated controller. Failures
 * go through {@link ApiErrors#answer}, the mapping the controllers' advice uses.
 */
@Configuration(proxyBeanMethods = false)
class HotRoutes {
    private static final List<MediaType> JSON = List.of(MediaType.APPLICATION_JSON);
    /** Before the actuator's endpoint mapping, which is -100. */
    static final int HOT_ROUTES_ORDER = -200;

    private final JsonMapper json;
    private final ApiErrors errors;
    private final JsonBodies bodies;

    HotRoutes(JsonMapper json, ApiErrors errors, JsonBodies bodies) {
        this.json = json;
        this.errors = errors;
        this.bodies = bodies;
    }

    /**
     * Asks the functional routes first. Spring Boot's actuator mapping (order -100) comes before every
     * other mapping, and being a request-mapping lookup it matched each hot request against the actuator's
     * patterns and built a no-match report before the router was asked (seen in an allocation profile of
     * the paced lane). The router knows only the hot API paths, so no other request is served differently.
     */
    @Bean
    static BeanPostProcessor hotRoutesFirst() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String name) {
                if (bean instanceof RouterFunctionMapping mapping) {
                    mapping.setOrder(HOT_ROUTES_ORDER);
                }
                return bean;
            }
        };
    }

    @Bean
    RouterFunction<ServerResponse> hotApiRoutes(HotEndpoints endpoints) {
        RouterFunctions.Builder routes = RouterFunctions.route();
        for (HotEndpoints.Endpoint endpoint : endpoints.all()) {
            routes.route(RequestPredicates.method(endpoint.method()).and(RequestPredicates.path(endpoint.pattern())),
                    request -> endpoint.serve().serve(new SpringRequest(request.exchange().getRequest(), bodies),
                                    request.pathVariables())
                            .flatMap(answer -> write(request, answer)));
        }
        RouterFunction<ServerResponse> hot = routes
                .filter((request, next) -> Mono.defer(() -> next.handle(request))
                        .onErrorResume(Exception.class, e -> error(request, e)))
                .build();
        for (HttpMethod method : List.of(HttpMethod.POST, HttpMethod.GET)) {
            hot = hot.and(otherMethods(method, endpoints.all().stream().filter(e -> e.method().equals(method))
                    .map(HotEndpoints.Endpoint::pattern).toArray(String[]::new)));
        }
        return hot;
    }

    /**
     * 405 for any other method on these paths, answered by Spring Boot's error handler as it was when
     * the annotated mappings knew the paths (without it the request would find no handler: 404).
     */
    private static RouterFunction<ServerResponse> otherMethods(HttpMethod allowed, String... paths) {
        RequestPredicate anyPath = RequestPredicates.path(paths[0]);
        for (int i = 1; i < paths.length; i++) {
            anyPath = anyPath.or(RequestPredicates.path(paths[i]));
        }
        return RouterFunctions.route(anyPath.and(RequestPredicates.method(allowed).negate()),
                request -> Mono.error(new MethodNotAllowedException(request.method(), Set.of(allowed))));
    }

    /**
     * The error as JSON, as the advice answers it. A client that takes no JSON gets 406 from Spring Boot's
     * error handler instead, as from the annotated controllers (whose advice's answer could not be written).
     */
    private Mono<ServerResponse> error(ServerRequest request, Exception e) {
        return acceptsJson(request) ? write(request, errors.answer(e)) : Mono.error(notAcceptable(e));
    }

    private static NotAcceptableStatusException notAcceptable(Exception e) {
        return e instanceof NotAcceptableStatusException refused ? refused : new NotAcceptableStatusException(JSON);
    }

    /**
     * The answer as JSON bytes. The work is done by then: like the annotated controllers' content
     * negotiation, a client that takes no JSON is refused with 406 only when the answer is written.
     */
    private Mono<ServerResponse> write(ServerRequest request, ResponseEntity<?> entity) {
        HttpStatusCode status = entity.getStatusCode();
        Object value = entity.getBody();
        if (value == null) {
            return ServerResponse.status(status).build();
        }
        if (!acceptsJson(request)) {
            return Mono.error(new NotAcceptableStatusException(JSON));
        }
        byte[] written = AnswerJson.write(value);
        byte[] bytes = written != null ? written : json.writeValueAsBytes(value);
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).contentLength(bytes.length)
                .body((message, context) -> message.writeWith(Mono.just(message.bufferFactory().wrap(bytes))));
    }

    private static boolean acceptsJson(ServerRequest request) {
        return HotEndpoints.acceptsJson(request.headers().accept());
    }

    private record SpringRequest(ServerHttpRequest request, JsonBodies bodies) implements HotRequest {
        @Override
        public Map<String, String> query() {
            return request.getQueryParams().toSingleValueMap();
        }

        @Override
        public <T> Mono<T> body(Class<T> type, String what) {
            return bodies.read(request, type, what);
        }

        @Override
        public NextPops.Slot nextPopSlot() {
            return null;
        }
    }
}
