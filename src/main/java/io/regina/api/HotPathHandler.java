package io.regina.api;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Serves the hot endpoints ({@link HotEndpoints}) in front of Spring's web handler. A profile of the paced
 * lane put about half of each request's allocation and most of its event-loop CPU in the exchange, filter
 * chain, handler mappings and response writers around a handler that does one thing; here a request whose
 * method and path name a hot endpoint goes to it directly and its answer is written as JSON bytes.
 * Everything else goes to Spring unchanged, including the hot paths' odd cases, so they keep Spring's
 * answers: a path that is not spelled with plain characters (decoding), another method (405), an Accept
 * that takes no JSON (406). Installed only while API authentication is off: with {@code regina.auth.enabled}
 * Spring Security must see every request.
 */
@Component
@ConditionalOnProperty(name = "regina.auth.enabled", havingValue = "false", matchIfMissing = true)
final class HotPathHandler implements HttpHandlerDecoratorFactory {
    private final List<Route> routes;
    private final JsonMapper json;
    private final ApiErrors errors;

    HotPathHandler(HotEndpoints endpoints, JsonMapper json, ApiErrors errors) {
        this.routes = endpoints.all().stream().map(Route::new).toList();
        this.json = json;
        this.errors = errors;
    }

    @Override
    public HttpHandler apply(HttpHandler spring) {
        return (request, response) -> {
            Map<String, String> variables = new HashMap<>(4);
            Route route = match(routes, request, variables);
            return route == null ? spring.handle(request, response) : serve(route, request, variables, response);
        };
    }

    private Mono<Void> serve(Route route, ServerHttpRequest request, Map<String, String> variables,
                             ServerHttpResponse response) {
        return Mono.defer(() -> route.endpoint.serve().serve(request, variables))
                .<ResponseEntity<?>>map(answer -> answer)
                .onErrorResume(Exception.class, e -> Mono.just(errors.answer(e)))
                .flatMap(answer -> write(response, answer));
    }

    private Mono<Void> write(ServerHttpResponse response, ResponseEntity<?> answer) {
        response.setStatusCode(answer.getStatusCode());
        Object value = answer.getBody();
        if (value == null) {
            return response.setComplete();
        }
        byte[] bytes = json.writeValueAsBytes(value);
        HttpHeaders headers = response.getHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.setContentLength(bytes.length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
    }

    /** The route for this request, its path variables put in {@code variables}; null when Spring should serve it. */
    static Route match(List<Route> routes, ServerHttpRequest request, Map<String, String> variables) {
        HttpMethod method = request.getMethod();
        if (method != HttpMethod.GET && method != HttpMethod.POST) {
            return null;
        }
        String path = request.getURI().getRawPath();
        if (!PlainPath.is(path)) {
            return null;
        }
        String[] segments = path.split("/", -1);
        for (Route route : routes) {
            if (route.endpoint.method().equals(method) && route.matches(segments, variables)) {
                return acceptsJson(request) ? route : null;
            }
        }
        return null;
    }

    private static boolean acceptsJson(ServerHttpRequest request) {
        try {
            return HotEndpoints.acceptsJson(request.getHeaders().getAccept());
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    /** An endpoint's pattern split into segments; a {@code {name}} segment matches any one segment. */
    static final class Route {
        private final HotEndpoints.Endpoint endpoint;
        private final String[] segments;

        Route(HotEndpoints.Endpoint endpoint) {
            this.endpoint = endpoint;
            this.segments = endpoint.pattern().split("/", -1);
        }

        boolean matches(String[] path, Map<String, String> variables) {
            if (path.length != segments.length) {
                return false;
            }
            for (int i = 0; i < segments.length; i++) {
                String segment = segments[i];
                if (!segment.startsWith("{") && !segment.equals(path[i])) {
                    return false;
                }
            }
            for (int i = 0; i < segments.length; i++) {
                if (segments[i].startsWith("{")) {
                    variables.put(segments[i].substring(1, segments[i].length() - 1), path[i]);
                }
            }
            return true;
        }
    }
}
