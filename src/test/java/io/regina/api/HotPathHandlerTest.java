package io.regina.api;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import reactor.core.publisher.Mono;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which requests the hot-path handler serves itself, with which path variables, and which it leaves to Spring. */
class HotPathHandlerTest {
    private static final HotEndpoints.Serve NOTHING = (request, variables) -> Mono.just(ResponseEntity.ok().build());
    private final List<HotPathHandler.Route> routes = List.of(
            new HotPathHandler.Route(new HotEndpoints.Endpoint(HttpMethod.POST, "/api/v1/push", NOTHING)),
            new HotPathHandler.Route(new HotEndpoints.Endpoint(HttpMethod.GET, "/api/v1/pop/queue/{queue}", NOTHING)),
            new HotPathHandler.Route(new HotEndpoints.Endpoint(HttpMethod.GET,
                    "/api/v1/pop/queue/{queue}/partition/{partition}", NOTHING)));

    @Test
    void servesPlainHotPathsWithTheirVariables() {
        Map<String, String> variables = new HashMap<>();
        assertThat(match(MockServerHttpRequest.get("/api/v1/pop/queue/jobs.email-1?batch=5").build(), variables))
                .isSameAs(routes.get(1));
        assertThat(variables).containsExactly(Map.entry("queue", "jobs.email-1"));

        variables.clear();
        assertThat(match(MockServerHttpRequest.get("/api/v1/pop/queue/q/partition/p_1")
                .header("Accept", "application/json, text/plain, */*").build(), variables)).isSameAs(routes.get(2));
        assertThat(variables).containsOnly(Map.entry("queue", "q"), Map.entry("partition", "p_1"));

        assertThat(match(MockServerHttpRequest.post("/api/v1/push").build(), new HashMap<>())).isSameAs(routes.get(0));
    }

    @Test
    void leavesEverythingElseToSpring() {
        assertThat(match(MockServerHttpRequest.put("/api/v1/push").build())).isNull();
        assertThat(match(MockServerHttpRequest.head("/api/v1/pop/queue/q").build())).isNull();
        assertThat(match(MockServerHttpRequest.get("/api/v1/push").build())).isNull();
        assertThat(match(MockServerHttpRequest.get("/api/v1/pop/queue/q/extra/segments").build())).isNull();
        assertThat(match(MockServerHttpRequest.get("/api/v1/pop/queue/").build())).isNull();
        assertThat(match(MockServerHttpRequest.post("/api/v1/push").header("Accept", "text/html").build())).isNull();
        assertThat(match(MockServerHttpRequest.post("/api/v1/push").header("Accept", "not a type").build())).isNull();
        assertThat(match(raw("/api/v1/pop/queue/a%2Fb"))).isNull();
        assertThat(match(raw("/api/v1/pop/queue/a/../../dashboard"))).isNull();
        assertThat(match(raw("/api/v1/pop/queue/a;x=1"))).isNull();
        assertThat(match(raw("/api/v1/pop/queue//q"))).isNull();
        assertThat(match(raw("/api/v1/pop/queue/q/"))).isNull();
    }

    private HotPathHandler.Route match(ServerHttpRequest request) {
        return match(request, new HashMap<>());
    }

    private HotPathHandler.Route match(ServerHttpRequest request, Map<String, String> variables) {
        return HotPathHandler.match(routes, request, variables);
    }

    private static ServerHttpRequest raw(String path) {
        return MockServerHttpRequest.method(HttpMethod.GET, URI.create("http://localhost" + path)).build();
    }
}
