package io.regina.api;

import io.regina.testing.TestNode;
import io.regina.testing.TestTokens;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Queen's JS client (client-v2) created with {@code bearerToken}, replayed request for request as
 * {@link QueenJsClientIT} replays it without one: HttpClient sends {@code Authorization: Bearer <token>}
 * and {@code Content-Type: application/json} on every request, GETs included; on a non-2xx answer it
 * throws an error whose {@code status} is the HTTP status and whose {@code message} is the body's
 * {@code error}, and does not retry a 4xx. The npm package itself cannot be run here (it is not on the
 * registry this machine reaches), so these are the client's requests and the parts of each answer it reads.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "regina.auth.enabled=true", "regina.auth.secret=" + QueenJsClientAuthIT.SECRET})
class QueenJsClientAuthIT {
    static final String SECRET = "queen-js-client-secret-of-32-bytes+";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void node(DynamicPropertyRegistry registry) {
        TestNode.register(registry);
    }

    @Test
    void aReadWriteTokenPushesPopsAndAcks() throws Exception {
        String token = TestTokens.hs256(SECRET, "worker-1", "read-write");
        String queue = "js-auth-" + UUID.randomUUID().toString().substring(0, 8);
        // QueueBuilder.create() with the client's defaults, then QueueBuilder.push() to partition "Default"
        assertThat(send("POST", "/api/v1/configure", "{\"queue\":\"" + queue + "\",\"namespace\":null,\"task\":null,"
                + "\"options\":{\"leaseTime\":300,\"retryLimit\":3}}", token).statusCode()).isEqualTo(200);
        HttpResponse<String> pushed = send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + queue
                + "\",\"partition\":\"Default\",\"payload\":{\"n\":7},\"transactionId\":\"" + UUID.randomUUID() + "\"}]}",
                token);
        assertThat(pushed.statusCode()).isEqualTo(201);
        assertThat(JSON.readTree(pushed.body()).get(0).path("status").asString()).isEqualTo("queued");

        // QueueBuilder.pop(): a GET with the JSON content type and the token
        HttpResponse<String> popped = send("GET", "/api/v1/pop/queue/" + queue + "?batch=1&wait=false&timeout=30000",
                null, token);
        assertThat(popped.statusCode()).isEqualTo(200);
        JsonNode message = JSON.readTree(popped.body()).path("messages").get(0);
        assertThat(message.path("data").path("n").asInt()).isEqualTo(7);
        assertThat(message.path("producerSub").asString()).isEqualTo("worker-1");

        // Queen.ack(message, true): the single-ack body, consumerGroup null and the leaseId
        HttpResponse<String> acked = send("POST", "/api/v1/ack", "{\"transactionId\":\""
                + message.path("transactionId").asString() + "\",\"partitionId\":\"" + message.path("partitionId").asString()
                + "\",\"status\":\"completed\",\"error\":null,\"consumerGroup\":null,\"leaseId\":\""
                + message.path("leaseId").asString() + "\"}", token);
        assertThat(acked.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(acked.body()).get(0).path("success").asBoolean()).isTrue();
        assertThat(send("GET", "/api/v1/pop/queue/" + queue + "?batch=1&wait=false", null, token).statusCode())
                .as("acked, nothing left").isEqualTo(204);
    }

    @Test
    void aReadOnlyTokensPushIsRefusedWithWhatTheClientThrows() throws Exception {
        String queue = "js-auth-ro-" + UUID.randomUUID().toString().substring(0, 8);
        HttpResponse<String> refused = send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + queue
                + "\",\"partition\":\"Default\",\"payload\":{\"n\":1},\"transactionId\":\"" + UUID.randomUUID() + "\"}]}",
                TestTokens.hs256(SECRET, "viewer", "read-only"));
        // the client's error: status 403 (a 4xx, so no retry), message = body.error
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).contains("application/json"));
        assertThat(JSON.readTree(refused.body()).path("error").asString()).isEqualTo("Insufficient permissions");

        String writer = TestTokens.hs256(SECRET, "w", "read-write");
        assertThat(send("GET", "/api/v1/pop/queue/" + queue + "?batch=1&wait=false", null, writer).statusCode())
                .as("the refused push stored nothing").isEqualTo(204);
    }

    private HttpResponse<String> send(String method, String path, String body, String token) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
