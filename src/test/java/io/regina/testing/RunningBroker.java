package io.regina.testing;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The integration-test setup for the HTTP API: the whole broker (real Ratis, real fsync, a temporary data
 * directory, {@link TestNode}) on a random port, and JSON helpers that check the status and read the answer
 * as a tree. Test classes extending it share one broker (Spring's context cache); each uses its own queues.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class RunningBroker {
    protected static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    protected int port;

    protected WebTestClient http;

    @DynamicPropertySource
    static void node(DynamicPropertyRegistry registry) {
        TestNode.register(registry);
    }

    @BeforeEach
    void connect() {
        http = WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port)
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(16 << 20))
                .responseTimeout(Duration.ofSeconds(60)).build();
    }

    /** A JSON POST expecting {@code status}; the answer as a tree, null when it has no body. */
    protected JsonNode post(String path, String body, int status) {
        byte[] bytes = http.post().uri(path).contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange().expectStatus().isEqualTo(status).expectBody().returnResult().getResponseBodyContent();
        return tree(bytes);
    }

    /** A GET expecting {@code status}; the answer as a tree, null when it has no body. */
    protected JsonNode get(String path, int status) {
        byte[] bytes = http.get().uri(path).exchange().expectStatus().isEqualTo(status).expectBody().returnResult()
                .getResponseBodyContent();
        return tree(bytes);
    }

    /** The status of a GET, whatever it is. */
    protected int status(String path) {
        return http.get().uri(path).exchange().returnResult(byte[].class).getStatus().value();
    }

    /** A pop of {@code queue} with {@code query}: its answer, or null for a 204. */
    protected JsonNode pop(String queue, String query) {
        var result = http.get().uri("/api/v1/pop/queue/" + queue + "?" + query).exchange()
                .expectBody().returnResult();
        if (result.getStatus().value() == 204) {
            return null;
        }
        assertThat(result.getStatus().value()).isEqualTo(200);
        return tree(result.getResponseBodyContent());
    }

    private static JsonNode tree(byte[] bytes) {
        return bytes == null || bytes.length == 0 ? null : JSON.readTree(bytes);
    }
}
