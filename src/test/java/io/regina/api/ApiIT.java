package io.regina.api;

import io.regina.testing.TestNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** The HTTP API against the running broker: real Ratis, real fsync, a temporary data directory. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ApiIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    WebTestClient http;

    @DynamicPropertySource
    static void node(DynamicPropertyRegistry registry) {
        TestNode.register(registry);
    }


    @BeforeEach
    void client() {
        http = WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(60)).build();
    }

    private static String queue() {
        return "q-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private JsonNode post(String path, String body, int status) {
        byte[] bytes = http.post().uri(path).contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange().expectStatus().isEqualTo(status).expectBody().returnResult().getResponseBodyContent();
        return bytes == null || bytes.length == 0 ? null : JSON.readTree(bytes);
    }

    /** A GET expecting {@code status}; 0 accepts 200 or 204 (null body for 204). */
    private JsonNode get(String path, int status) {
        WebTestClient.ResponseSpec response = http.get().uri(path).exchange();
        if (status == 0) {
            response.expectStatus().value(code -> assertThat(code).isIn(200, 204));
        } else {
            response.expectStatus().isEqualTo(status);
        }
        byte[] bytes = response.expectBody().returnResult().getResponseBodyContent();
        return bytes == null || bytes.length == 0 ? null : JSON.readTree(bytes);
    }

    private JsonNode delete(String path, int status) {
        byte[] bytes = http.method(HttpMethod.DELETE).uri(path).exchange().expectStatus().isEqualTo(status)
                .expectBody().returnResult().getResponseBodyContent();
        return bytes == null || bytes.length == 0 ? null : JSON.readTree(bytes);
    }

    private JsonNode push(String queue, String payload) {
        return post("/api/v1/push", "{\"items\":[{\"queue\":\"" + queue + "\",\"payload\":" + payload + "}]}", 201);
    }

    private JsonNode pop(String queue, String query) {
        return get("/api/v1/pop/queue/" + queue + "?" + query, 200);
    }

    private JsonNode ack(JsonNode message, String status, String extra) {
        return post("/api/v1/ack", "{\"transactionId\":\"" + message.get("transactionId").asString()
                + "\",\"partitionId\":\"" + message.get("partitionId").asString() + "\",\"leaseId\":\""
                + message.get("leaseId").asString() + "\",\"status\":\"" + status + "\"" + extra + "}", 200).get(0);
    }

    @Test
    void pushPopAckRoundTrip() {
        String q = queue();
        JsonNode pushed = push(q, "{\"n\":1}");
        assertThat(pushed.get(0).get("status").asString()).isEqualTo("queued");
        assertThat(pushed.get(0).get("index").asInt()).isZero();
        assertThat(pushed.get(0).get("message_id").asString()).hasSize(36);
        assertThat(pushed.get(0).get("transaction_id").asString()).isEqualTo(pushed.get(0).get("message_id").asString());
        assertThat(pushed.get(0).get("queueName").asString()).isEqualTo(q);
        assertThat(pushed.get(0).has("partition_id")).isTrue();

        JsonNode popped = pop(q, "batch=10");
        assertThat(popped.get("success").asBoolean()).isTrue();
        assertThat(popped.get("partition").asString()).isEqualTo("Default");
        assertThat(popped.get("consumerGroup").asString()).isEqualTo("__QUEUE_MODE__");
        assertThat(popped.get("partitionsClaimed").asInt()).isEqualTo(1);
        JsonNode message = popped.get("messages").get(0);
        assertThat(message.get("data").get("n").asInt()).isEqualTo(1);
        assertThat(message.get("attempts").asInt()).isEqualTo(1);
        assertThat(message.get("createdAt").asString()).endsWith("Z");
        assertThat(message.get("traceId").isNull()).isTrue();
        assertThat(message.get("leaseId").asString()).isEqualTo(popped.get("leaseId").asString());

        http.get().uri("/api/v1/pop/queue/" + q).exchange().expectStatus().isNoContent();
        JsonNode acked = ack(message, "completed", "");
        assertThat(acked.get("success").asBoolean()).isTrue();
        assertThat(acked.get("leaseReleased").asBoolean()).isTrue();
        assertThat(acked.get("queueName").asString()).isEqualTo(q);
        assertThat(acked.get("partitionName").asString()).isEqualTo("Default");
        http.get().uri("/api/v1/pop/queue/" + q).exchange().expectStatus().isNoContent();
        assertThat(get("/api/v1/queues/" + q + "/size", 200).get("size").asLong()).isZero();
    }

    @Test
    void payloadDefaultsAndNullStayAsSent() {
        String q = queue();
        post("/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\"},{\"queue\":\"" + q + "\",\"payload\":null},"
                + "{\"queue\":\"" + q + "\",\"payload\":[1,\"two\"]}]}", 201);
        JsonNode messages = pop(q, "batch=3").get("messages");
        assertThat(messages.get(0).get("data").isObject()).isTrue();
        assertThat(messages.get(1).get("data").isNull()).isTrue();
        assertThat(messages.get(2).get("data").get(1).asString()).isEqualTo("two");
    }

    @Test
    void anObjectPayloadComesBackAsTheBytesSentAndDecodesToTheSameJson() {
        String q = queue();
        String payload = "{ \"to\" : \"ada@example.com\",\n  \"amount\": 1.10, \"note\": \"Zo\\u00eb \u6771\u4eac \\\"x\\\"\" }";
        push(q, payload);
        byte[] answer = http.get().uri("/api/v1/pop/queue/" + q + "?batch=1").exchange().expectStatus().isOk()
                .expectBody().returnResult().getResponseBodyContent();
        assertThat(new String(answer, StandardCharsets.UTF_8)).contains("\"data\":" + payload);
        JsonNode data = JSON.readTree(answer).get("messages").get(0).get("data");
        assertThat(data).isEqualTo(JSON.readTree(payload));
    }

    @Test
    void duplicateTransactionIdAnswersTheOriginal() {
        String q = queue();
        JsonNode first = post("/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"transactionId\":\"t1\"},"
                + "{\"queue\":\"" + q + "\",\"transactionId\":\"t1\"}]}", 201);
        assertThat(first.get(0).get("status").asString()).isEqualTo("queued");
        assertThat(first.get(1).get("status").asString()).isEqualTo("duplicate");
        assertThat(first.get(1).get("message_id").asString()).isEqualTo(first.get(0).get("message_id").asString());
        JsonNode again = post("/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"transactionId\":\"t1\"}]}", 201);
        assertThat(again.get(0).get("status").asString()).isEqualTo("duplicate");
    }

    @Test
    void concurrentPushesOfOneKeyQueueExactlyOne() {
        String q = queue();
        List<CompletableFuture<JsonNode>> pushes = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            pushes.add(CompletableFuture.supplyAsync(() -> post("/api/v1/push",
                    "{\"items\":[{\"queue\":\"" + q + "\",\"transactionId\":\"same\"}]}", 201)));
        }
        long queued = pushes.stream().map(CompletableFuture::join)
                .filter(r -> r.get(0).get("status").asString().equals("queued")).count();
        assertThat(queued).isEqualTo(1);
    }

    @Test
    void longPollIsWokenByAPush() throws Exception {
        String q = queue();
        CompletableFuture<JsonNode> waiting = CompletableFuture.supplyAsync(() -> pop(q, "wait=true&timeout=20000"));
        Thread.sleep(500);
        assertThat(waiting).isNotDone();
        long pushedAt = System.nanoTime();
        push(q, "{\"wake\":true}");
        JsonNode popped = waiting.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(Duration.ofNanos(System.nanoTime() - pushedAt)).isLessThan(Duration.ofSeconds(2));
        assertThat(popped.get("messages").get(0).get("data").get("wake").asBoolean()).isTrue();
    }

    @Test
    void longPollTimesOutWith204() {
        long start = System.nanoTime();
        http.get().uri("/api/v1/pop/queue/" + queue() + "?wait=true&timeout=700").exchange()
                .expectStatus().isNoContent();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(650));
    }

    @Test
    void failedAckRetriesThenDeadLetters() {
        String q = queue();
        post("/api/v1/configure", "{\"queue\":\"" + q + "\",\"options\":{\"retryLimit\":1}}", 200);
        push(q, "{\"job\":\"boom\"}");
        JsonNode first = pop(q, "").get("messages").get(0);
        JsonNode failed = ack(first, "failed", ",\"error\":\"first\"");
        assertThat(failed.get("dlq").asBoolean()).isFalse();
        JsonNode second = pop(q, "").get("messages").get(0);
        assertThat(second.get("attempts").asInt()).isEqualTo(2);
        JsonNode dead = ack(second, "failed", ",\"error\":\"kaput\"");
        assertThat(dead.get("dlq").asBoolean()).isTrue();
        http.get().uri("/api/v1/pop/queue/" + q).exchange().expectStatus().isNoContent();

        JsonNode dlq = get("/api/v1/dlq?queue=" + q, 200);
        assertThat(dlq.get("total").asLong()).isEqualTo(1);
        JsonNode row = dlq.get("messages").get(0);
        assertThat(row.get("errorMessage").asString()).isEqualTo("kaput");
        assertThat(row.get("data").get("job").asString()).isEqualTo("boom");
        assertThat(row.get("failedAt").asString()).endsWith("Z");
        JsonNode jobs = get("/api/v1/failed-jobs?queue=" + q, 200);
        assertThat(jobs.get("total").asLong()).isEqualTo(1);
        String uuid = jobs.get("items").get(0).get("uuid").asString();
        assertThat(get("/api/v1/failed-jobs/" + uuid, 200).get("attempts").asInt()).isEqualTo(2);

        JsonNode retried = post("/api/v1/failed-jobs/retry", "{\"ids\":[\"" + uuid + "\",\"nope\"]}", 200);
        assertThat(retried.get("retried").asInt()).isEqualTo(1);
        assertThat(retried.get("missing").get(0).asString()).isEqualTo("nope");
        JsonNode again = pop(q, "").get("messages").get(0);
        assertThat(again.get("attempts").asInt()).isEqualTo(1);
        assertThat(again.get("transactionId").asString()).isEqualTo(first.get("transactionId").asString());
        get("/api/v1/failed-jobs/" + uuid, 404);
    }

    @Test
    void forgetAndEditedRetry() {
        String q = queue();
        push(q, "{\"v\":1}");
        push(q, "{\"v\":2}");
        JsonNode one = pop(q, "").get("messages").get(0);
        ack(one, "dlq", ",\"error\":\"bad\"");
        JsonNode two = pop(q, "").get("messages").get(0);
        ack(two, "dlq", ",\"error\":\"worse\"");
        JsonNode rows = get("/api/v1/failed-jobs?queue=" + q, 200).get("items");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).get("error").asString()).isEqualTo("worse");
        delete("/api/v1/failed-jobs/" + rows.get(0).get("uuid").asString(), 200);
        delete("/api/v1/failed-jobs/" + rows.get(0).get("uuid").asString(), 404);
        post("/api/v1/failed-jobs/" + rows.get(1).get("uuid").asString() + "/retry", "{\"data\":{\"v\":42}}", 200);
        assertThat(pop(q, "").get("messages").get(0).get("data").get("v").asInt()).isEqualTo(42);
    }

    @Test
    void concurrentRetryAndForgetOfOneRowHaveExactlyOneWinner() {
        String q = queue();
        int rows = 20;
        for (int i = 0; i < rows; i++) {
            push(q, "{\"row\":" + i + "}");
            ack(pop(q, "").get("messages").get(0), "dlq", ",\"error\":\"x\"");
        }
        List<String> uuids = new java.util.ArrayList<>();
        get("/api/v1/failed-jobs?limit=100&queue=" + q, 200).get("items").forEach(r -> uuids.add(r.get("uuid").asString()));
        assertThat(uuids).hasSize(rows);
        List<CompletableFuture<Integer>> retries = new java.util.ArrayList<>();
        List<CompletableFuture<Integer>> forgets = new java.util.ArrayList<>();
        for (String uuid : uuids) {
            retries.add(CompletableFuture.supplyAsync(() -> http.post().uri("/api/v1/failed-jobs/" + uuid + "/retry")
                    .contentType(MediaType.APPLICATION_JSON).bodyValue("{}").exchange().returnResult(String.class)
                    .getStatus().value()));
            forgets.add(CompletableFuture.supplyAsync(() -> http.method(HttpMethod.DELETE)
                    .uri("/api/v1/failed-jobs/" + uuid).exchange().returnResult(String.class).getStatus().value()));
        }
        int retried = 0;
        for (int i = 0; i < rows; i++) {
            int retry = retries.get(i).join();
            int forget = forgets.get(i).join();
            assertThat(List.of(retry, forget)).as("one of retry/forget wins, the other gets 404")
                    .containsExactlyInAnyOrder(200, 404);
            retried += retry == 200 ? 1 : 0;
        }
        int delivered = 0;
        JsonNode popped;
        while ((popped = get("/api/v1/pop/queue/" + q + "?batch=100&autoAck=true", 0)) != null) {
            delivered += popped.get("messages").size();
        }
        assertThat(delivered).as("each retry delivers its job once").isEqualTo(retried);
        assertThat(get("/api/v1/failed-jobs?queue=" + q, 200).get("total").asLong()).isZero();
    }

    @Test
    void configureEchoesEveryOptionAndResetsOmittedOnes() {
        String q = queue();
        JsonNode first = post("/api/v1/configure", "{\"queue\":\"" + q + "\",\"options\":{\"leaseTime\":30,"
                + "\"retryLimit\":7,\"stripes\":4}}", 200);
        assertThat(first.get("configured").asBoolean()).isTrue();
        assertThat(first.get("options").size()).isEqualTo(16);
        assertThat(first.get("options").get("leaseTime").asInt()).isEqualTo(30);
        assertThat(first.get("options").get("ttl").asInt()).isEqualTo(3600);
        JsonNode second = post("/api/v1/configure", "{\"queue\":\"" + q + "\",\"options\":{\"retryLimit\":2}}", 200);
        assertThat(second.get("options").get("leaseTime").asInt()).isEqualTo(300);
        assertThat(second.get("options").get("stripes").asInt()).isEqualTo(1);
        assertThat(second.get("queueId").asString()).isEqualTo(first.get("queueId").asString());
    }

    @Test
    void stripesSpreadJobsSoManyWorkersRunAtOnce() {
        String q = queue();
        post("/api/v1/configure", "{\"queue\":\"" + q + "\",\"options\":{\"stripes\":4}}", 200);
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            items.append(i == 0 ? "" : ",").append("{\"queue\":\"").append(q).append("\",\"payload\":").append(i)
                    .append('}');
        }
        post("/api/v1/push", "{\"items\":[" + items + "]}", 201);
        java.util.Set<String> partitions = new java.util.HashSet<>();
        for (int worker = 0; worker < 4; worker++) {
            JsonNode popped = pop(q, "batch=1");
            partitions.add(popped.get("partition").asString());
        }
        assertThat(partitions).hasSize(4).allMatch(p -> p.startsWith("stripe-"));
    }

    @Test
    void transactionIsAllOrNothing() {
        String q = queue();
        push(q, "{\"step\":1}");
        JsonNode message = pop(q, "").get("messages").get(0);
        String ok = "{\"operations\":[{\"type\":\"ack\",\"transactionId\":\"" + message.get("transactionId").asString()
                + "\",\"partitionId\":\"" + message.get("partitionId").asString() + "\"},"
                + "{\"type\":\"push\",\"items\":[{\"queue\":\"" + q + "-next\",\"payload\":{\"step\":2}}]}]}";
        JsonNode done = post("/api/v1/transaction", ok, 200);
        assertThat(done.get("success").asBoolean()).isTrue();
        assertThat(done.get("results").get(1).get("type").asString()).isEqualTo("push");
        assertThat(pop(q + "-next", "").get("messages").get(0).get("data").get("step").asInt()).isEqualTo(2);

        String bad = "{\"operations\":[{\"type\":\"push\",\"items\":[{\"queue\":\"" + q + "-x\"}]},"
                + "{\"type\":\"ack\",\"transactionId\":\"missing\",\"partitionId\":\"nope\"}]}";
        JsonNode refused = post("/api/v1/transaction", bad, 200);
        assertThat(refused.get("success").asBoolean()).isFalse();
        assertThat(refused.get("error").asString()).contains("Message not found");
        http.get().uri("/api/v1/pop/queue/" + q + "-x").exchange().expectStatus().isNoContent();
    }

    @Test
    void leaseExtendAndErrors() {
        String q = queue();
        push(q, "{}");
        JsonNode popped = pop(q, "");
        JsonNode extended = post("/api/v1/lease/" + popped.get("leaseId").asString() + "/extend", "{\"seconds\":600}",
                200).get(0);
        assertThat(extended.get("success").asBoolean()).isTrue();
        assertThat(extended.get("expiresAt").asString()).endsWith("Z");
        JsonNode unknown = post("/api/v1/lease/" + UUID.randomUUID() + "/extend", "{}", 200).get(0);
        assertThat(unknown.get("success").asBoolean()).isFalse();
        assertThat(unknown.get("error").asString()).isEqualTo("Lease not found");
        JsonNode wrongLease = post("/api/v1/ack", "{\"transactionId\":\"" + popped.get("messages").get(0)
                .get("transactionId").asString() + "\",\"partitionId\":\"" + popped.get("partitionId").asString()
                + "\",\"leaseId\":\"" + UUID.randomUUID() + "\"}", 200).get(0);
        assertThat(wrongLease.get("success").asBoolean()).isFalse();
        assertThat(wrongLease.get("error").asString()).isEqualTo("Invalid or expired lease");
    }

    @Test
    void consumerGroupsEachReadEveryMessage() {
        String q = queue();
        push(q, "{\"n\":1}");
        JsonNode a = pop(q, "consumerGroup=a");
        JsonNode b = pop(q, "consumerGroup=b");
        assertThat(a.get("messages").get(0).get("data").get("n").asInt()).isEqualTo(1);
        assertThat(b.get("messages").get(0).get("data").get("n").asInt()).isEqualTo(1);
        assertThat(b.get("consumerGroup").asString()).isEqualTo("b");
        JsonNode sought = post("/api/v1/consumer-groups/a/queues/" + q + "/seek", "{\"toEnd\":true}", 200);
        assertThat(sought.get("partitionsUpdated").asInt()).isEqualTo(1);
        post("/api/v1/consumer-groups/a/queues/" + q + "/seek", "{}", 400);
        JsonNode deleted = delete("/api/v1/consumer-groups/b/queues/" + q, 200);
        assertThat(deleted.get("success").asBoolean()).isTrue();
        assertThat(deleted.get("queueName").asString()).isEqualTo(q);
    }

    @Test
    void delayedPushAndRelease() throws Exception {
        String q = queue();
        post("/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"payload\":1,\"delayMs\":1500},"
                + "{\"queue\":\"" + q + "\",\"payload\":2}]}", 201);
        JsonNode now = pop(q, "batch=5").get("messages");
        assertThat(now).hasSize(1);
        assertThat(now.get(0).get("data").asInt()).isEqualTo(2);
        JsonNode released = ack(now.get(0), "release", ",\"delayMs\":200");
        assertThat(released.get("success").asBoolean()).isTrue();
        JsonNode later = pop(q, "batch=5&wait=true&timeout=5000").get("messages");
        assertThat(later.get(0).get("data").asInt()).isEqualTo(2);
        assertThat(later.get(0).get("attempts").asInt()).isEqualTo(2);
        ack(later.get(0), "completed", "");
        JsonNode delayed = pop(q, "batch=5&wait=true&timeout=5000").get("messages");
        assertThat(delayed.get(0).get("data").asInt()).isEqualTo(1);
    }

    @Test
    void maintenanceBuffersPushesAndPopMaintenanceAnswers204() {
        String q = queue();
        post("/api/v1/system/maintenance", "{\"enabled\":true}", 200);
        try {
            JsonNode buffered = push(q, "{\"b\":1}");
            assertThat(buffered.get(0).get("status").asString()).isEqualTo("buffered");
            assertThat(get("/api/v1/system/maintenance", 200).get("bufferedMessages").asInt()).isEqualTo(1);
        } finally {
            post("/api/v1/system/maintenance", "{\"enabled\":false}", 200);
        }
        post("/api/v1/system/maintenance/pop", "{\"enabled\":true}", 200);
        try {
            http.get().uri("/api/v1/pop/queue/" + q).exchange().expectStatus().isNoContent();
        } finally {
            post("/api/v1/system/maintenance/pop", "{\"enabled\":false}", 200);
        }
        assertThat(pop(q, "").get("messages").get(0).get("data").get("b").asInt()).isEqualTo(1);
        post("/api/v1/system/maintenance", "{\"enabled\":\"yes\"}", 400);
    }

    @Test
    void queueOperations() {
        String q = queue();
        push(q, "1");
        push(q, "2");
        JsonNode size = get("/api/v1/queues/" + q + "/size", 200);
        assertThat(size.get("size").asLong()).isEqualTo(2);
        assertThat(size.get("pending").asLong()).isEqualTo(2);
        JsonNode monitor = get("/api/v1/monitor?queues=" + q + "&max=1", 200);
        assertThat(monitor.get(0).get("status").asString()).isEqualTo("ALERT");
        post("/api/v1/queues/" + q + "/pause", "{}", 200);
        http.get().uri("/api/v1/pop/queue/" + q).exchange().expectStatus().isNoContent();
        post("/api/v1/queues/" + q + "/resume", "{}", 200);
        assertThat(delete("/api/v1/queues/" + q + "/clear", 200).get("cleared").asLong()).isEqualTo(2);
        http.get().uri("/api/v1/pop/queue/" + q).exchange().expectStatus().isNoContent();
        JsonNode deleted = delete("/api/v1/resources/queues/" + q, 200);
        assertThat(deleted.get("existed").asBoolean()).isTrue();
        assertThat(delete("/api/v1/resources/queues/" + q, 200).get("existed").asBoolean()).isFalse();
    }

    @Test
    void aThousandMessagesOf256BytesFitInOnePush() {
        String q = queue();
        StringBuilder items = new StringBuilder();
        String payload = "\"" + "x".repeat(254) + "\"";
        for (int i = 0; i < 1000; i++) {
            items.append(i == 0 ? "" : ",").append("{\"queue\":\"").append(q).append("\",\"payload\":")
                    .append(payload).append('}');
        }
        JsonNode pushed = post("/api/v1/push", "{\"items\":[" + items + "]}", 201);
        assertThat(pushed).hasSize(1000);
        assertThat(get("/api/v1/queues/" + q + "/size", 200).get("pending").asLong()).isEqualTo(1000);
    }

    @Test
    void maxSizeTurnsPushesAwayWith429() {
        String q = queue();
        post("/api/v1/configure", "{\"queue\":\"" + q + "\",\"options\":{\"maxSize\":1}}", 200);
        push(q, "1");
        JsonNode full = post("/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\"}]}", 429);
        assertThat(full.get("error").asString()).contains("maxSize");
    }

    @Test
    void healthAndTraces() {
        JsonNode health = get("/health", 200);
        assertThat(health.get("status").asString()).isEqualTo("healthy");
        assertThat(health.get("database").asString()).isEqualTo("connected");
        JsonNode trace = post("/api/v1/traces", "{\"transactionId\":\"t\",\"partitionId\":\"p\",\"data\":{\"x\":1}}",
                201);
        assertThat(trace.get("success").asBoolean()).isTrue();
        assertThat(trace.get("traceId").asString()).hasSize(36);
    }

    @Test
    void actuatorShowsRaftRoleAndBrokerMetrics() {
        push(queue(), "{}");
        JsonNode health = get("/actuator/health", 200);
        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.get("components").get("raft").get("details").get("role").asString()).isEqualTo("LEADER");
        get("/actuator/health/readiness", 200);
        String metrics = http.get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(metrics).contains("regina_messages_pushed_total", "regina_messages_popped_total",
                "regina_messages_acked_total", "regina_raft_commands_per_entry", "regina_raft_entries_total",
                "regina_raft_apply_latency_seconds", "regina_failed_jobs");
        JsonNode cluster = get("/api/v1/cluster", 200);
        assertThat(cluster.get("role").asString()).isEqualTo("LEADER");
        assertThat(cluster.get("peers")).hasSize(1);
    }

    @Test
    void partitionRouteMultiPartitionClaimsAndBatchAck() {
        String q = queue();
        post("/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"partition\":\"a\",\"payload\":1},"
                + "{\"queue\":\"" + q + "\",\"partition\":\"a\",\"payload\":2},"
                + "{\"queue\":\"" + q + "\",\"partition\":\"b\",\"payload\":3}]}", 201);
        JsonNode fromB = pop(q + "/partition/b", "");
        assertThat(fromB.get("partition").asString()).isEqualTo("b");
        assertThat(fromB.get("messages").get(0).get("data").asInt()).isEqualTo(3);
        http.get().uri("/api/v1/pop/queue/" + q + "/partition/b").exchange().expectStatus().isNoContent();

        JsonNode both = pop(q, "consumerGroup=multi&partitions=2&batch=10");
        assertThat(both.get("partitionsClaimed").asInt()).isEqualTo(2);
        assertThat(both.get("messages")).hasSize(3);
        StringBuilder acks = new StringBuilder();
        for (JsonNode m : both.get("messages")) {
            acks.append(acks.length() == 0 ? "" : ",").append("{\"transactionId\":\"")
                    .append(m.get("transactionId").asString()).append("\",\"partitionId\":\"")
                    .append(m.get("partitionId").asString()).append("\",\"leaseId\":\"")
                    .append(m.get("leaseId").asString()).append("\"}");
        }
        JsonNode acked = post("/api/v1/ack/batch", "{\"consumerGroup\":\"multi\",\"acknowledgments\":["
                + acks + "]}", 200);
        assertThat(acked).hasSize(3).allMatch(a -> a.get("success").asBoolean());
        assertThat(acked.get(2).get("index").asInt()).isEqualTo(2);
        http.get().uri("/api/v1/pop/queue/" + q + "?consumerGroup=multi").exchange().expectStatus().isNoContent();
    }

    @Test
    void subscriptionNewSkipsWhatCameBefore() {
        String q = queue();
        push(q, "\"old\"");
        http.get().uri("/api/v1/pop/queue/" + q + "?consumerGroup=fresh&subscriptionMode=new").exchange()
                .expectStatus().isNoContent();
        push(q, "\"new\"");
        JsonNode popped = pop(q, "consumerGroup=fresh&subscriptionMode=new");
        assertThat(popped.get("messages")).hasSize(1);
        assertThat(popped.get("messages").get(0).get("data").asString()).isEqualTo("new");
        JsonNode all = pop(q, "consumerGroup=everything&batch=10");
        assertThat(all.get("messages")).hasSize(2);
    }

    @Test
    void handBackUncountsTheAttemptAndRetryAfterMsBacksOff() {
        String q = queue();
        push(q, "{\"job\":1}");
        JsonNode first = pop(q, "").get("messages").get(0);
        assertThat(ack(first, "retry", "").get("leaseReleased").asBoolean()).isTrue();
        JsonNode again = pop(q, "").get("messages").get(0);
        assertThat(again.get("attempts").asInt()).as("a hand-back does not count").isEqualTo(1);
        JsonNode backedOff = post("/api/v1/ack", "{\"transactionId\":\"" + again.get("transactionId").asString()
                + "\",\"partitionId\":\"" + again.get("partitionId").asString() + "\",\"status\":\"failed\","
                + "\"error\":\"later\",\"retryAfterMs\":300}", 200).get(0);
        assertThat(backedOff.get("success").asBoolean()).isTrue();
        http.get().uri("/api/v1/pop/queue/" + q).exchange().expectStatus().isNoContent();
        JsonNode later = pop(q, "wait=true&timeout=5000").get("messages").get(0);
        assertThat(later.get("attempts").asInt()).isEqualTo(2);
    }

    @Test
    void readViewsDescribeQueuesGroupsAndMessages() {
        String q = queue();
        JsonNode pushed = post("/api/v1/push", "{\"items\":[{\"queue\":\"" + q
                + "\",\"transactionId\":\"look-me-up\",\"payload\":{\"k\":1}}]}", 201);
        pop(q, "consumerGroup=readers&autoAck=true");
        JsonNode list = get("/api/v1/resources/queues", 200);
        assertThat(list.get("queues").findValuesAsString("name")).contains(q);
        JsonNode detail = get("/api/v1/resources/queues/" + q, 200);
        assertThat(detail.get("consumerGroups").get(0).asString()).isEqualTo("readers");
        assertThat(detail.get("partitionList").get(0).get("name").asString()).isEqualTo("Default");
        JsonNode groups = get("/api/v1/consumer-groups", 200);
        assertThat(groups.findValuesAsString("consumerGroup")).contains("readers");
        JsonNode found = get("/api/v1/messages?id=look-me-up", 200).get("messages").get(0);
        assertThat(found.get("id").asString()).isEqualTo(pushed.get(0).get("message_id").asString());
        assertThat(found.get("queue").asString()).isEqualTo(q);
        JsonNode subscription = post("/api/v1/consumer-groups/readers/subscription",
                "{\"subscriptionTimestamp\":\"2026-01-01T00:00:00Z\"}", 200);
        assertThat(subscription.get("queuesUpdated").asInt()).isEqualTo(1);
        JsonNode deleted = delete("/api/v1/consumer-groups/readers", 200);
        assertThat(deleted.get("deletedPartitions").asInt()).isEqualTo(1);
        assertThat(get("/api/v1/resources/queues/" + q, 200).get("consumerGroups")).isEmpty();
    }

    /** Each malformed request gets a 4xx with an error message, and changes nothing. */
    @ParameterizedTest(name = "{0} {1} -> {3}")
    @CsvSource(delimiter = '|', value = {
        "POST|/api/v1/push|{}|400",
        "POST|/api/v1/push|{\"items\":{}}|400",
        "POST|/api/v1/push|{\"items\":[{\"payload\":1}]}|400",
        "POST|/api/v1/push|{\"items\":[{\"queue\":5}]}|400",
        "POST|/api/v1/push|{\"items\":[{\"queue\":\"bad-input\",\"traceId\":\"not-a-uuid\"}]}|400",
        "POST|/api/v1/push|{\"items\":[{\"queue\":\"bad-input\",\"delayMs\":-1}]}|400",
        "POST|/api/v1/push|not json|400",
        "POST|/api/v1/push|[]|400",
        "POST|/api/v1/configure|{}|400",
        "POST|/api/v1/configure|{\"queue\":\"bad-input\",\"options\":{\"leaseTime\":\"long\"}}|400",
        "POST|/api/v1/configure|{\"queue\":\"bad-input\",\"options\":{\"stripes\":5000}}|400",
        "POST|/api/v1/ack|{\"transactionId\":\"x\"}|400",
        "POST|/api/v1/ack|{\"transactionId\":\"x\",\"partitionId\":\"y\",\"status\":\"weird\"}|400",
        "POST|/api/v1/ack/batch|{}|400",
        "POST|/api/v1/transaction|{\"operations\":[]}|400",
        "POST|/api/v1/transaction|{\"operations\":[{\"type\":\"jump\"}]}|400",
        "POST|/api/v1/traces|{\"transactionId\":\"t\"}|400",
        "POST|/api/v1/failed-jobs/retry|{}|400",
        "POST|/api/v1/failed-jobs/retry|{\"all\":true,\"queue\":\"x\"}|400",
        "GET|/api/v1/pop/queue/bad-input?batch=0||400",
        "GET|/api/v1/pop/queue/bad-input?batch=abc||400",
        "GET|/api/v1/pop/queue/bad-input?subscriptionFrom=yesterday||400",
        "GET|/api/v1/failed-jobs?limit=0||400",
        "GET|/api/v1/failed-jobs/unknown||404",
        "GET|/api/v1/monitor||400",
    })
    void malformedRequestsAreRefusedAndChangeNothing(String method, String path, String body, int status) {
        long before = get("/api/v1/resources/overview", 200).get("queues").asLong();
        WebTestClient.ResponseSpec response = "GET".equals(method)
                ? http.get().uri(path).exchange()
                : http.post().uri(path).contentType(MediaType.APPLICATION_JSON).bodyValue(body == null ? "" : body)
                        .exchange();
        byte[] bytes = response.expectStatus().isEqualTo(status).expectBody().returnResult().getResponseBodyContent();
        JsonNode error = JSON.readTree(bytes);
        assertThat(error.get("error").asString()).isNotBlank();
        assertThat(get("/api/v1/resources/overview", 200).get("queues").asLong()).isEqualTo(before);
        assertThat(get("/api/v1/resources/queues/bad-input", 404)).isNotNull();
    }

    @Test
    void theHotRoutesAnswerAsTheAnnotatedMappingsDid() {
        // another method on a hot path: 405, not "no handler"
        http.get().uri("/api/v1/push").exchange().expectStatus().isEqualTo(405);
        http.post().uri("/api/v1/pop/queue/" + queue()).exchange().expectStatus().isEqualTo(405);
        // a body without a content type: 415; no body and no content type: the body is missing
        http.post().uri("/api/v1/ack").bodyValue(new byte[] {'{', '}'}).exchange().expectStatus().isEqualTo(415);
        JsonNode missing = JSON.readTree(http.post().uri("/api/v1/ack").exchange().expectStatus().isEqualTo(400)
                .expectBody().returnResult().getResponseBodyContent());
        assertThat(missing.get("error").asString()).isEqualTo("The request body must be a JSON object (ack)");
        assertThat(missing.get("code").asString()).isEqualTo("BAD_REQUEST");
        // a refusal to a client that takes no JSON: 406, as content negotiation answered it
        http.post().uri("/api/v1/push").contentType(MediaType.APPLICATION_JSON).accept(MediaType.TEXT_HTML)
                .bodyValue("{}").exchange().expectStatus().isEqualTo(406);
        // a +json content type is JSON
        http.post().uri("/api/v1/push").contentType(MediaType.parseMediaType("application/vnd.queen+json"))
                .bodyValue("{\"items\":[]}").exchange().expectStatus().isEqualTo(201);
    }
}
