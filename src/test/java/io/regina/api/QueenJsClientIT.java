package io.regina.api;

import io.regina.testing.TestNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests exactly as Queen's JS client (client-v2) sends them, for the cases its own test suite
 * (client-js/test-v2) exercises and Regina once refused: a ~1.4 MB payload, pops by namespace or task
 * ({@code queue().namespace(n).consume(...)}), the Admin API's namespace and task lists, and a
 * transaction built by TransactionBuilder (acks without leaseId, the leases in requiredLeases).
 * The client always sends {@code Content-Type: application/json}, also on GET.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class QueenJsClientIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** What QueueBuilder.create() sends as options when the test gives none (QUEUE_DEFAULTS). */
    private static final String QUEUE_DEFAULTS = "{\"leaseTime\":300,\"retryLimit\":3,\"priority\":0,"
            + "\"delayedProcessing\":0,\"windowBuffer\":0,\"maxSize\":10000,\"retentionSeconds\":0,"
            + "\"completedRetentionSeconds\":0,\"encryptionEnabled\":false}";

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
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(16 << 20)) // reads the large pops
                .responseTimeout(Duration.ofSeconds(60)).build();
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private JsonNode post(String path, String body, int status) {
        byte[] bytes = http.post().uri(path).contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange().expectStatus().isEqualTo(status).expectBody().returnResult().getResponseBodyContent();
        return bytes == null || bytes.length == 0 ? null : JSON.readTree(bytes);
    }

    /** A GET the way HttpClient.js sends it: with a JSON content type and no body. */
    private JsonNode get(String path, int status) {
        byte[] bytes = http.get().uri(path).header("Content-Type", "application/json")
                .exchange().expectStatus().isEqualTo(status).expectBody().returnResult().getResponseBodyContent();
        return bytes == null || bytes.length == 0 ? null : JSON.readTree(bytes);
    }

    /** QueueBuilder.create(): namespace and task are sent as null when not set. */
    private void create(String queue, String namespace, String task, String options) {
        JsonNode answer = post("/api/v1/configure", "{\"queue\":\"" + queue + "\",\"namespace\":"
                + quoted(namespace) + ",\"task\":" + quoted(task) + ",\"options\":" + options + "}", 200);
        assertThat(answer.get("configured").asBoolean()).isTrue();
    }

    private static String quoted(String value) {
        return value == null ? "null" : "\"" + value + "\"";
    }

    /** QueueBuilder.push(): partition "Default" and a client-made transactionId on every item. */
    private JsonNode push(String queue, String payload) {
        return post("/api/v1/push", "{\"items\":[{\"queue\":\"" + queue + "\",\"partition\":\"Default\",\"payload\":"
                + payload + ",\"transactionId\":\"" + UUID.randomUUID() + "\"}]}", 201);
    }

    @Test
    void aMegabytePayloadIsPushedAndPoppedWhole() {
        // push.js pushLargePayload: 10,000 objects of ~140 bytes in one message
        String q = unique("test-queue-large-payload");
        create(q, null, null, QUEUE_DEFAULTS);
        StringBuilder array = new StringBuilder("[");
        for (int i = 0; i < 10_000; i++) {
            array.append(i == 0 ? "" : ",").append("{\"id\":\"").append(UUID.randomUUID().toString().replace("-", ""))
                    .append("\",\"data\":\"").append("x".repeat(100))
                    .append("\",\"nested\":{\"field1\":\"value1\",\"field2\":\"value2\",\"field3\":\"value3\"}}");
        }
        String payload = "{\"array\":" + array.append(']') + ",\"metadata\":{\"size\":" + array.length() + "}}";
        assertThat(payload.length()).isGreaterThan(1_000_000);

        assertThat(push(q, payload).get(0).get("status").asString()).isEqualTo("queued");
        JsonNode popped = get("/api/v1/pop/queue/" + q + "?batch=1&wait=false&timeout=30000", 200);
        assertThat(popped.get("messages").get(0).get("data").get("array").size()).isEqualTo(10_000);
    }

    @Test
    void aBodyLargerThanOneCommandIsRefusedWith413NotRetried5xx() {
        String q = unique("test-queue-too-large");
        String body = "{\"items\":[{\"queue\":\"" + q + "\",\"payload\":\"" + "x".repeat(9 << 20) + "\"}]}";
        JsonNode answer = post("/api/v1/push", body, 413);
        assertThat(answer.get("error").asString()).contains("too large");
        get("/api/v1/pop/queue/" + q + "?batch=1&wait=false", 204);
    }

    @Test
    void popByNamespaceTakesFromEveryQueueOfIt_highestPriorityFirst() {
        // ai_priority.js testPriorityWithNamespace and ai_mixed_scenarios.js testNamespaceWithMultipleQueues
        String ns = unique("test-priority-namespace");
        String low = unique("test-queue-v2-pri-ns-low");
        String medium = unique("test-queue-v2-pri-ns-medium");
        String high = unique("test-queue-v2-pri-ns-high");
        create(high, ns, null, QUEUE_DEFAULTS.replace("\"priority\":0", "\"priority\":10"));
        create(medium, ns, null, QUEUE_DEFAULTS.replace("\"priority\":0", "\"priority\":5"));
        create(low, ns, null, QUEUE_DEFAULTS.replace("\"priority\":0", "\"priority\":1"));
        push(low, "{\"order\":\"third\",\"value\":1}");
        push(medium, "{\"order\":\"second\",\"value\":5}");
        push(high, "{\"order\":\"first\",\"value\":10}");

        JsonNode popped = get("/api/v1/pop?batch=3&wait=false&timeout=30000&namespace=" + ns, 200);
        JsonNode messages = popped.get("messages");
        assertThat(messages.size()).isEqualTo(3);
        assertThat(messages.get(0).get("data").get("value").asInt()).isEqualTo(10);
        assertThat(messages.get(1).get("data").get("value").asInt()).isEqualTo(5);
        assertThat(messages.get(2).get("data").get("value").asInt()).isEqualTo(1);
        assertThat(popped.get("queue").asString()).isEqualTo(high);

        // Queen.ack(messages, true): a batch ack, each item with its own partitionId and leaseId
        StringBuilder acks = new StringBuilder();
        for (JsonNode m : messages) {
            acks.append(acks.isEmpty() ? "" : ",").append("{\"transactionId\":\"")
                    .append(m.get("transactionId").asString()).append("\",\"partitionId\":\"")
                    .append(m.get("partitionId").asString()).append("\",\"status\":\"completed\",\"error\":null,"
                            + "\"leaseId\":\"").append(m.get("leaseId").asString()).append("\"}");
        }
        JsonNode acked = post("/api/v1/ack/batch", "{\"acknowledgments\":[" + acks + "],\"consumerGroup\":null}", 200);
        assertThat(acked.size()).isEqualTo(3);
        acked.forEach(a -> assertThat(a.get("success").asBoolean()).isTrue());
        get("/api/v1/pop?batch=3&wait=false&timeout=30000&namespace=" + ns, 204);
    }

    @Test
    void popByTaskTakesOnlyWhatTheBatchAsks() {
        // consume.js testConsumerTask: batch 1, one message
        String task = unique("test-task");
        String q1 = unique("test-queue-v2-task-a");
        String q2 = unique("test-queue-v2-task-b");
        create(q1, null, task, QUEUE_DEFAULTS);
        create(q2, null, task, QUEUE_DEFAULTS);
        push(q1, "{\"n\":1}");
        push(q2, "{\"n\":2}");

        JsonNode first = get("/api/v1/pop?batch=1&wait=false&timeout=30000&task=" + task, 200);
        assertThat(first.get("messages").size()).isEqualTo(1);
        JsonNode second = get("/api/v1/pop?batch=1&wait=false&timeout=30000&task=" + task, 200);
        assertThat(second.get("messages").size()).isEqualTo(1);
        assertThat(second.get("queue").asString()).isNotEqualTo(first.get("queue").asString());
        get("/api/v1/pop?batch=1&wait=false&timeout=30000&task=" + task, 204);
        get("/api/v1/pop?batch=1&wait=false&timeout=30000&task=" + unique("no-such-task"), 204);
    }

    @Test
    void namespaceLongPollIsWokenByAPushAndTimesOutWith204() throws Exception {
        String ns = unique("test-namespace");
        String q = unique("test-queue-v2-namespace");
        create(q, ns, null, QUEUE_DEFAULTS);
        long started = System.nanoTime();
        get("/api/v1/pop?batch=1&wait=true&timeout=700&namespace=" + ns, 204);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(650));

        CompletableFuture<JsonNode> waiting = CompletableFuture.supplyAsync(
                () -> get("/api/v1/pop?batch=1&wait=true&timeout=20000&namespace=" + ns, 200));
        Thread.sleep(500);
        push(q, "{\"woken\":true}");
        JsonNode popped = waiting.get();
        assertThat(popped.get("messages").get(0).get("data").get("woken").asBoolean()).isTrue();
    }

    @Test
    void popWithNeitherNamespaceNorTaskIsABadRequest() {
        JsonNode answer = get("/api/v1/pop?batch=1&wait=false", 400);
        assertThat(answer.get("error").asString()).contains("namespace");
    }

    @Test
    void namespacesAndTasksAreListed() {
        String ns = unique("test-namespace-alpha");
        String task = unique("test-task-one");
        String q = unique("test-queue-v2-ns-1");
        create(q, ns, task, QUEUE_DEFAULTS);
        push(q, "{}");

        JsonNode namespaces = get("/api/v1/resources/namespaces", 200).get("namespaces");
        JsonNode row = null;
        for (JsonNode candidate : namespaces) {
            if (ns.equals(candidate.get("namespace").asString())) {
                row = candidate;
            }
        }
        assertThat(row).isNotNull();
        assertThat(row.get("queues").asInt()).isEqualTo(1);
        assertThat(row.get("messages").get("pending").asLong()).isEqualTo(1);
        assertThat(get("/api/v1/resources/tasks", 200).get("tasks").toString()).contains("\"task\":\"" + task + "\"");
    }

    @Test
    void aTransactionAsTransactionBuilderSendsIt() {
        // transaction.js transactionBasicPushAck: ack ops carry no leaseId; the lease is in requiredLeases
        String a = unique("test-queue-v2-txn-basic-a");
        String b = unique("test-queue-v2-txn-basic-b");
        create(a, null, null, QUEUE_DEFAULTS);
        create(b, null, null, QUEUE_DEFAULTS);
        push(a, "{\"value\":1}");
        JsonNode message = get("/api/v1/pop/queue/" + a + "?batch=1&wait=false&timeout=30000", 200)
                .get("messages").get(0);

        JsonNode done = post("/api/v1/transaction", "{\"operations\":[{\"type\":\"push\",\"items\":[{\"queue\":\"" + b
                + "\",\"payload\":{\"value\":2}}]},{\"type\":\"ack\",\"transactionId\":\""
                + message.get("transactionId").asString() + "\",\"partitionId\":\""
                + message.get("partitionId").asString() + "\",\"status\":\"completed\"}],\"requiredLeases\":[\""
                + message.get("leaseId").asString() + "\"]}", 200);
        assertThat(done.get("success").asBoolean()).isTrue();

        JsonNode moved = get("/api/v1/pop/queue/" + b + "?batch=1&wait=false&timeout=30000", 200);
        assertThat(moved.get("messages").get(0).get("data").get("value").asInt()).isEqualTo(2);
        get("/api/v1/pop/queue/" + a + "?batch=1&wait=false&timeout=30000", 204);
    }
}
