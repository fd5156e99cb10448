package io.regina.api;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import reactor.core.publisher.Mono;

import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which request lines the hot connection serves itself, with which variables and query, and which it leaves to Spring. */
class HotPathsTest {
    private static final HotEndpoints.Serve NOTHING = (request, variables) -> Mono.just(ResponseEntity.ok().build());
    private final List<HotEndpoints.Endpoint> endpoints = List.of(
            new HotEndpoints.Endpoint(HttpMethod.POST, "/api/v1/push", NOTHING),
            new HotEndpoints.Endpoint(HttpMethod.GET, "/api/v1/pop/queue/{queue}", NOTHING),
            new HotEndpoints.Endpoint(HttpMethod.GET, "/api/v1/pop/queue/{queue}/partition/{partition}", NOTHING));
    private final HotPaths paths = new HotPaths(endpoints);

    @Test
    void servesPlainHotPathsWithTheirVariables() {
        Map<String, String> variables = new HashMap<>();
        assertThat(endpoint("GET", "/api/v1/pop/queue/jobs.email-1?batch=5&wait=true", null, variables))
                .isSameAs(endpoints.get(1));
        assertThat(variables).containsExactly(Map.entry("queue", "jobs.email-1"));

        variables.clear();
        assertThat(endpoint("GET", "/api/v1/pop/queue/q/partition/p_1", "application/json, text/plain, */*",
                variables)).isSameAs(endpoints.get(2));
        assertThat(variables).containsOnly(Map.entry("queue", "q"), Map.entry("partition", "p_1"));

        assertThat(endpoint("POST", "/api/v1/push", "*/*", new HashMap<>())).isSameAs(endpoints.get(0));
        assertThat(endpoint("POST", "/api/v1/push", "application/*", new HashMap<>())).isSameAs(endpoints.get(0));
        assertThat(endpoint("GET", "/api/v1/pop/queue/q?consumerGroup=a%20b&x=%7E", null, new HashMap<>()))
                .isSameAs(endpoints.get(1));
    }

    @Test
    void leavesEverythingElseToSpring() {
        assertThat(endpoint("PUT", "/api/v1/push", null)).isNull();
        assertThat(endpoint("HEAD", "/api/v1/pop/queue/q", null)).isNull();
        assertThat(endpoint("GET", "/api/v1/push", null)).isNull();
        assertThat(endpoint("GET", "/api/v1/pop/queue/q/extra/segments", null)).isNull();
        assertThat(endpoint("GET", "/api/v1/pop/queue/", null)).isNull();
        assertThat(endpoint("POST", "/api/v1/push", "text/html")).isNull();
        assertThat(endpoint("POST", "/api/v1/push", "not a type")).isNull();
        assertThat(endpoint("GET", "/api/v1/pop/queue/a%2Fb", null)).isNull();
        assertThat(endpoint("GET", "/api/v1/pop/queue/a/../../dashboard", null)).isNull();
        assertThat(endpoint("GET", "/api/v1/pop/queue/a;x=1", null)).isNull();
        assertThat(endpoint("GET", "/api/v1/pop/queue//q", null)).isNull();
        assertThat(endpoint("GET", "/api/v1/pop/queue/q/", null)).isNull();
        assertThat(endpoint("GET", "http://localhost/api/v1/pop/queue/q", null)).isNull();
        // a query java.net.URI would refuse: Spring answers it
        assertThat(endpoint("GET", "/api/v1/pop/queue/q?group=a b", null)).isNull();
        assertThat(endpoint("GET", "/api/v1/pop/queue/q?group=a|b", null)).isNull();
        assertThat(endpoint("GET", "/api/v1/pop/queue/q?group=%zz", null)).isNull();
        assertThat(endpoint("GET", "/api/v1/pop/queue/q?group=caf\u00e9", null)).isNull();
        assertThat(endpoint("GET", "/api/v1/pop/queue/q#top", null)).isNull();
    }

    @Test
    void readsTheQueryAsSpringDoes() {
        for (String raw : List.of("batch=5&wait=true", "a=1&a=2", "a&a=2", "a=&b", "a=b=c", "=x&y=1", "==x",
                "a=%41%2b+b", "a=1&&b=2&", "&", "a+b=c", "wait=false&timeout=30000&consumerGroup=g%3A1")) {
            assertThat(HotPaths.query(raw)).as(raw).isEqualTo(
                    MockServerHttpRequest.method(HttpMethod.GET, URI.create("http://h/p?" + raw)).build()
                            .getQueryParams().toSingleValueMap());
        }
        assertThat(HotPaths.query(null)).isEmpty();
        assertThat(HotPaths.rawQuery("/p?a=1?b")).isEqualTo("a=1?b");
        assertThat(HotPaths.rawQuery("/p")).isNull();
    }

    private HotEndpoints.Endpoint endpoint(String method, String uri, String accept) {
        return endpoint(method, uri, accept, new HashMap<>());
    }

    private HotEndpoints.Endpoint endpoint(String method, String uri, String accept, Map<String, String> variables) {
        HotPaths.Route route = paths.match(method, uri, accept, variables);
        return route == null ? null : route.endpoint();
    }
}
