package io.regina.config;

import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

class ApiSecurityBypassTest {

    @Test
    void onlyPlainHotApiPathsSkipSpringSecurity() {
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.post("/api/v1/push").build())).isTrue();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.post("/api/v1/ack").build())).isTrue();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.post("/api/v1/ack/batch").build())).isTrue();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.get("/health").build())).isTrue();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.post("/api/v1/transaction").build())).isTrue();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.post("/api/v1/ack/pop/queue/jobs").build())).isTrue();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.post("/api/v1/ack/pop/queue/q/partition/p").build()))
                .isTrue();
        assertThat(ApiSecurityBypass.hot(raw("/api/v1/ack/pop/queue/a/../../dashboard"))).isFalse();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.get("/api/v1/pop/queue/jobs-1?batch=5").build()))
                .isTrue();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.get("/api/v1/pop/queue/q/partition/p_1").build()))
                .isTrue();

        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.get("/dashboard").build())).isFalse();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.get("/login").build())).isFalse();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.post("/logout").build())).isFalse();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.delete("/api/v1/push").build())).isFalse();
        assertThat(ApiSecurityBypass.hot(raw("/api/v1/pop/queue/a/../../dashboard")))
                .isFalse();
        assertThat(ApiSecurityBypass.hot(raw("/api/v1/pop/queue/a//b"))).isFalse();
        assertThat(ApiSecurityBypass.hot(raw("/api/v1/pop/queue/a;x=1"))).isFalse();
        assertThat(ApiSecurityBypass.hot(raw("/api/v1/pop/queue/a%2Fb"))).isFalse();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.get("/api/v1/pop/queue/").build())).isFalse();
        assertThat(ApiSecurityBypass.hot(MockServerHttpRequest.get("/api/v1/queues").build())).isFalse();
    }

    /** The request line's path as sent, not normalized by a URI builder. */
    private static MockServerHttpRequest raw(String path) {
        return MockServerHttpRequest.method(HttpMethod.GET, URI.create(path)).build();
    }
}
