package io.regina.config;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import io.regina.testing.TestNode;
import io.regina.testing.TestTokens;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JWT auth on the API against the running broker (real Ratis): tokens signed here with the node's HS256
 * secret, as an identity provider would, and checked for issuer and audience; the hot functional routes (push, pop, ack) and the annotated
 * controllers behind the same chain; the open paths and the dashboard's own login untouched.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "regina.auth.enabled=true",
        "regina.auth.secret=" + ApiAuthIT.SECRET,
        "regina.auth.issuer=" + ApiAuthIT.ISSUER,
        "regina.auth.audience=regina"})
class ApiAuthIT {
    static final String SECRET = "a-test-secret-of-at-least-32-bytes!";
    static final String ISSUER = "https://idp.test";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void node(DynamicPropertyRegistry registry) {
        TestNode.register(registry);
    }

    @Test
    void withoutAValidTokenTheApiAnswers401() throws Exception {
        String queue = queue();
        String push = pushBody(queue, null);
        for (String token : List.of("", "not-a-jwt", sign("rw", "read-write", Instant.now().plusSeconds(60), "x".repeat(40)),
                sign("rw", "read-write", Instant.now().minusSeconds(120), SECRET),
                new PlainJWT(claims("rw", "read-write", Instant.now().plusSeconds(60))).serialize(),
                sign(new JWTClaimsSet.Builder(claims("rw", "read-write", Instant.now().plusSeconds(600)))
                        .notBeforeTime(Date.from(Instant.now().plusSeconds(300))).build(), SECRET),
                sign(new JWTClaimsSet.Builder(claims("rw", "read-write", Instant.now().plusSeconds(600)))
                        .issuer("https://other.test").build(), SECRET),
                sign(new JWTClaimsSet.Builder(claims("rw", "read-write", Instant.now().plusSeconds(600)))
                        .audience("someone-else").build(), SECRET))) {
            HttpResponse<String> answer = send("POST", "/api/v1/push", push, token);
            assertThat(answer.statusCode()).as("token '%s'", token).isEqualTo(401);
            assertThat(JSON.readTree(answer.body()).path("error").asString()).isEqualTo("Authentication required");
            assertThat(JSON.readTree(answer.body()).path("code").asString()).isEqualTo("UNAUTHENTICATED");
            assertThat(send("GET", "/api/v1/pop/queue/" + queue, null, token).statusCode()).isEqualTo(401);
            assertThat(send("GET", "/api/v1/resources/queues", null, token).statusCode()).isEqualTo(401);
        }
    }

    @Test
    void readOnlyMayReadButNotPushOrPop() throws Exception {
        String token = sign("viewer", "read-only", Instant.now().plusSeconds(600), SECRET);
        assertThat(send("GET", "/api/v1/resources/queues", null, token).statusCode()).isEqualTo(200);
        HttpResponse<String> push = send("POST", "/api/v1/push", pushBody(queue(), null), token);
        assertThat(push.statusCode()).isEqualTo(403);
        assertThat(JSON.readTree(push.body()).path("error").asString()).isEqualTo("Insufficient permissions");
        assertThat(JSON.readTree(push.body()).path("code").asString()).isEqualTo("FORBIDDEN");
        assertThat(send("GET", "/api/v1/pop/queue/" + queue(), null, token).statusCode()).isEqualTo(403);
    }

    @Test
    void readWriteWorksTheQueueAndIsStampedButMayNotDelete() throws Exception {
        String token = sign("alice", "read-write", Instant.now().plusSeconds(600), SECRET);
        String queue = queue();
        assertThat(send("POST", "/api/v1/push", pushBody(queue, "mallory"), token).statusCode()).isEqualTo(201);

        HttpResponse<String> pop = send("GET", "/api/v1/pop/queue/" + queue + "?batch=1", null, token);
        assertThat(pop.statusCode()).isEqualTo(200);
        JsonNode message = JSON.readTree(pop.body()).path("messages").get(0);
        assertThat(message.path("producerSub").asString()).as("the token's sub, not the body's").isEqualTo("alice");

        String ack = "{\"transactionId\":\"" + message.path("transactionId").asString() + "\",\"partitionId\":\""
                + message.path("partitionId").asString() + "\",\"leaseId\":\"" + message.path("leaseId").asString() + "\"}";
        HttpResponse<String> acked = send("POST", "/api/v1/ack", ack, token);
        assertThat(acked.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(acked.body()).get(0).path("success").asBoolean()).isTrue();

        assertThat(send("DELETE", "/api/v1/resources/queues/" + queue, null, token).statusCode()).isEqualTo(403);
        assertThat(send("POST", "/api/v1/system/maintenance", "{\"enabled\":false}", token).statusCode())
                .isEqualTo(403);
    }

    @Test
    void adminMayDeleteWithTheRolesArrayClaim() throws Exception {
        String queue = queue();
        String writer = sign("w", "read-write", Instant.now().plusSeconds(600), SECRET);
        assertThat(send("POST", "/api/v1/push", pushBody(queue, null), writer).statusCode()).isEqualTo(201);
        JWTClaimsSet admin = new JWTClaimsSet.Builder(claims("root", null, Instant.now().plusSeconds(600)))
                .claim("roles", List.of("read-only", "admin")).build();
        HttpResponse<String> deleted = send("DELETE", "/api/v1/resources/queues/" + queue, null, sign(admin, SECRET));
        assertThat(deleted.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(deleted.body()).path("existed").asBoolean()).isTrue();
    }

    @Test
    void aTokenWithoutAKnownRoleMayDoNothing() throws Exception {
        String token = sign("nobody", "guest", Instant.now().plusSeconds(600), SECRET);
        assertThat(send("GET", "/api/v1/resources/queues", null, token).statusCode()).isEqualTo(403);
    }

    @Test
    void healthMetricsAndTheDashboardLoginStayAsTheyWere() throws Exception {
        assertThat(send("GET", "/health", null, "").statusCode()).isEqualTo(200);
        assertThat(send("GET", "/actuator/health", null, "").statusCode()).isEqualTo(200);
        assertThat(send("GET", "/actuator/prometheus", null, "").statusCode()).isEqualTo(200);
        HttpResponse<String> dashboard = send("GET", "/dashboard", null, "");
        assertThat(dashboard.statusCode()).isEqualTo(302);
        assertThat(dashboard.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/login"));
        HttpResponse<String> root = send("GET", "/", null, "");
        assertThat(root.statusCode()).isEqualTo(303);
        assertThat(root.headers().firstValue("Location")).hasValue("/dashboard");
    }

    private static String queue() {
        return "auth-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String pushBody(String queue, String producerSub) {
        String sub = producerSub == null ? "" : ",\"producerSub\":\"" + producerSub + "\"";
        return "{\"items\":[{\"queue\":\"" + queue + "\",\"payload\":{\"n\":1}" + sub + "}]}";
    }

    private static JWTClaimsSet claims(String subject, String role, Instant expires) {
        return new JWTClaimsSet.Builder().subject(subject).claim("role", role).issuer(ISSUER).audience("regina")
                .issueTime(new Date()).expirationTime(Date.from(expires)).build();
    }

    private static String sign(String subject, String role, Instant expires, String secret) {
        return sign(claims(subject, role, expires), secret);
    }

    private static String sign(JWTClaimsSet claims, String secret) {
        return TestTokens.hs256(claims, secret);
    }

    private HttpResponse<String> send(String method, String path, String body, String token)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (!token.isEmpty()) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
