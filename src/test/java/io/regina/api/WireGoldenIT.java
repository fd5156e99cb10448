package io.regina.api;

import io.regina.testing.TestNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wire, frozen: each test runs a scripted series of requests (the ones ApiIT and QueenJsClientIT
 * make, the hot paths with the headers clients really send, and the refusals) and compares status,
 * content type and body with {@code src/test/resources/api/<test>.json}. Ids, times and the run's
 * queue names are replaced by placeholders; everything else (field names, types, nulls, absent
 * fields, error texts) must match. Objects compare regardless of field order, because some answers
 * never had a fixed one; regenerate with {@code -Dgolden.update=true} and read the git diff to see
 * order changes too.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class WireGoldenIT {
    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final Path GOLDEN = Path.of("src/test/resources/api");
    private static final Pattern UUID_TEXT = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern TIME = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
    private static final String JSON_TYPE = "application/json";

    @LocalServerPort
    int port;

    WebTestClient http;
    String prefix;
    ArrayNode exchanges;
    String name;

    @DynamicPropertySource
    static void node(DynamicPropertyRegistry registry) {
        TestNode.register(registry);
    }

    @BeforeEach
    void start(TestInfo test) {
        http = WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(60)).build();
        prefix = "g" + UUID.randomUUID().toString().substring(0, 8);
        exchanges = JsonNodeFactory.instance.arrayNode();
        name = test.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void compare() throws IOException {
        Path file = GOLDEN.resolve(name + ".json");
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN);
            Files.writeString(file, JSON.writeValueAsString(exchanges) + "\n");
            return;
        }
        assertThat(file).as("golden file; create it with -Dgolden.update=true").exists();
        JsonNode expected = JSON.readTree(Files.readString(file));
        assertThat(exchanges.size()).isEqualTo(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(exchanges.get(i)).as("exchange %d", i).isEqualTo(expected.get(i));
        }
    }

    @Test
    void hotPaths() {
        String q = prefix + "-hot";
        JsonNode pushed = send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"payload\":{\"n\":1}},"
                + "{\"queue\":\"" + q + "\"},{\"queue\":\"" + q + "\",\"payload\":null},"
                + "{\"queue\":\"" + q + "\",\"payload\":[1,\"two\"],\"transactionId\":\"t1\",\"traceId\":\""
                + UUID.randomUUID() + "\"},{\"queue\":\"" + q + "\",\"transactionId\":\"t1\"}]}");
        send("POST", "/api/v1/push", "{\"items\":[]}");
        // Queen's QueueBuilder.push: partition "Default", its own transactionId
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"partition\":\"Default\",\"payload\":"
                + "{\"v\":2},\"transactionId\":\"" + UUID.randomUUID() + "\"}]}");
        JsonNode popped = send("GET", "/api/v1/pop/queue/" + q + "?batch=2&wait=false&timeout=30000", null);
        send("GET", "/api/v1/pop/queue/" + q + "?batch=2", null);
        JsonNode first = popped.get("messages").get(0);
        send("POST", "/api/v1/ack", ack(first, "completed", ",\"error\":null"));
        send("POST", "/api/v1/ack", ack(popped.get("messages").get(1), "completed", ""));
        send("POST", "/api/v1/ack", "{\"transactionId\":\"missing\",\"partitionId\":\""
                + first.get("partitionId").asString() + "\"}");
        JsonNode rest = send("GET", "/api/v1/pop/queue/" + q + "/partition/Default?batch=10", null);
        StringBuilder acks = new StringBuilder();
        for (JsonNode m : rest.get("messages")) {
            acks.append(acks.isEmpty() ? "" : ",").append(ack(m, "completed", ""));
        }
        acks.append(",{\"transactionId\":\"nope\",\"partitionId\":\"").append(first.get("partitionId").asString())
                .append("\",\"leaseId\":\"").append(UUID.randomUUID()).append("\"}");
        send("POST", "/api/v1/ack/batch", "{\"acknowledgments\":[" + acks + "],\"consumerGroup\":null}");
        send("POST", "/api/v1/ack/batch", "{\"acknowledgments\":[]}");
        send("GET", "/api/v1/pop/queue/" + q + "/partition/Default", null);

        // partitions, groups, multi-partition claims, autoAck
        String p = prefix + "-parts";
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + p + "\",\"partition\":\"a\",\"payload\":1},"
                + "{\"queue\":\"" + p + "\",\"partition\":\"b\",\"payload\":2}]}");
        send("GET", "/api/v1/pop/queue/" + p + "/partition/b?consumerGroup=g1", null);
        send("GET", "/api/v1/pop/queue/" + p + "?consumerGroup=multi&partitions=2&batch=10", null);
        send("GET", "/api/v1/pop/queue/" + p + "?consumerGroup=auto&autoAck=true&batch=10", null);
        send("GET", "/api/v1/pop/queue/" + p + "?consumerGroup=fresh&subscriptionMode=new", null);

        // the headers real clients send: Accept lists, charset, no content type
        String h = prefix + "-headers";
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + h + "\"}]}",
                Map.of(HttpHeaders.ACCEPT, "application/json, text/plain, */*"));
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + h + "\"}]}",
                Map.of(HttpHeaders.CONTENT_TYPE, "application/json;charset=UTF-8"));
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + h + "\"}]}",
                Map.of(HttpHeaders.CONTENT_TYPE, "text/plain"));
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + h + "\"}]}",
                Map.of(HttpHeaders.ACCEPT, "text/html"));
        send("GET", "/api/v1/pop/queue/" + h + "?batch=1", null, Map.of(HttpHeaders.ACCEPT, "application/xml"));
        send("GET", "/api/v1/pop/queue/" + h + "?batch=5", null,
                Map.of(HttpHeaders.ACCEPT, "application/json, text/plain, */*"));
        assertThat(pushed.get(0).get("status").asString()).isEqualTo("queued");
    }

    @Test
    void queuesAndJobs() {
        String q = prefix + "-q";
        send("POST", "/api/v1/configure", "{\"queue\":\"" + q + "\",\"namespace\":\"" + prefix + "ns\",\"task\":\""
                + prefix + "task\",\"options\":{\"leaseTime\":30,\"retryLimit\":1,\"stripes\":1,"
                + "\"deadLetterQueue\":true,\"priority\":3}}");
        send("POST", "/api/v1/configure", "{\"queue\":\"" + q + "\",\"namespace\":null,\"task\":null,\"options\":"
                + "{\"leaseTime\":300,\"retryLimit\":1,\"priority\":0,\"delayedProcessing\":0,\"windowBuffer\":0,"
                + "\"maxSize\":10000,\"retentionSeconds\":0,\"completedRetentionSeconds\":0,"
                + "\"encryptionEnabled\":false}}");
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"payload\":{\"job\":\"boom\"}},"
                + "{\"queue\":\"" + q + "\",\"payload\":{\"job\":\"two\"}}]}");
        JsonNode first = send("GET", "/api/v1/pop/queue/" + q, null).get("messages").get(0);
        send("POST", "/api/v1/ack", ack(first, "failed", ",\"error\":\"first\""));
        JsonNode second = send("GET", "/api/v1/pop/queue/" + q, null).get("messages").get(0);
        send("POST", "/api/v1/ack", ack(second, "failed", ",\"error\":\"kaput\""));
        JsonNode third = send("GET", "/api/v1/pop/queue/" + q, null);
        send("POST", "/api/v1/lease/" + third.get("leaseId").asString() + "/extend", "{\"seconds\":600}");
        send("POST", "/api/v1/lease/" + UUID.randomUUID() + "/extend", "{}");
        send("POST", "/api/v1/ack", ack(third.get("messages").get(0), "dlq", ",\"error\":\"bad\""));
        send("GET", "/api/v1/dlq?queue=" + q, null);
        JsonNode jobs = send("GET", "/api/v1/failed-jobs?queue=" + q, null);
        send("GET", "/api/v1/failed-jobs?queue=" + q + "&q=kaput&limit=1", null);
        String newest = jobs.get("items").get(0).get("uuid").asString();
        String oldest = jobs.get("items").get(1).get("uuid").asString();
        send("GET", "/api/v1/failed-jobs/" + newest, null);
        send("POST", "/api/v1/failed-jobs/retry", "{\"ids\":[\"" + oldest + "\",\"nope\"]}");
        send("POST", "/api/v1/failed-jobs/" + newest + "/retry", "{\"data\":{\"v\":42}}");
        send("DELETE", "/api/v1/failed-jobs/" + newest, null);
        send("POST", "/api/v1/failed-jobs/flush", "{\"queue\":\"" + q + "\"}");
        send("POST", "/api/v1/failed-jobs/prune", "{}");
        send("POST", "/api/v1/failed-jobs/retry", "{\"queue\":\"" + q + "\"}");

        send("GET", "/api/v1/queues/" + q + "/size", null, Map.of(), Set.of("oldestPendingAgeMs"));
        send("GET", "/api/v1/monitor?queues=" + q + "," + prefix + "-none&max=1", null);
        send("POST", "/api/v1/queues/" + q + "/pause", "{}");
        send("GET", "/api/v1/pop/queue/" + q, null);
        send("POST", "/api/v1/queues/" + q + "/resume", "{}");
        send("GET", "/api/v1/pop/queue/" + q + "?consumerGroup=readers&autoAck=true", null);
        send("GET", "/api/v1/resources/queues/" + q, null);
        send("GET", "/api/v1/resources/queues", null, mine("queues", "name"));
        send("GET", "/api/v1/resources/namespaces", null, mine("namespaces", "namespace"));
        send("GET", "/api/v1/resources/tasks", null, mine("tasks", "task"));
        send("GET", "/api/v1/consumer-groups", null, answer -> filter((ArrayNode) answer, "queueName"));
        send("POST", "/api/v1/consumer-groups/readers/queues/" + q + "/seek", "{\"toEnd\":true}");
        send("POST", "/api/v1/consumer-groups/readers/queues/" + q + "/seek",
                "{\"timestamp\":\"2026-01-01T00:00:00Z\"}");
        send("POST", "/api/v1/consumer-groups/readers/subscription",
                "{\"subscriptionTimestamp\":\"2026-01-01T00:00:00Z\"}");
        send("DELETE", "/api/v1/consumer-groups/readers/queues/" + q, null);
        send("DELETE", "/api/v1/consumer-groups/" + prefix + "-nobody", null);
        send("DELETE", "/api/v1/queues/" + q + "/clear", null);
        send("DELETE", "/api/v1/resources/queues/" + q, null);
        send("DELETE", "/api/v1/resources/queues/" + q, null);
    }

    @Test
    void transactionsTracesMessagesAndSystem() {
        String q = prefix + "-tx";
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"transactionId\":\"" + prefix
                + "-look\",\"payload\":{\"step\":1}}]}");
        send("GET", "/api/v1/messages?id=" + prefix + "-look", null);
        send("GET", "/api/v1/messages?queue=" + q, null);
        JsonNode message = send("GET", "/api/v1/pop/queue/" + q, null).get("messages").get(0);
        send("POST", "/api/v1/transaction", "{\"operations\":[{\"type\":\"ack\",\"transactionId\":\""
                + message.get("transactionId").asString() + "\",\"partitionId\":\""
                + message.get("partitionId").asString() + "\"},{\"type\":\"push\",\"items\":[{\"queue\":\"" + q
                + "-next\",\"payload\":{\"step\":2}}]}],\"requiredLeases\":[\"" + message.get("leaseId").asString()
                + "\"]}");
        send("POST", "/api/v1/transaction", "{\"operations\":[{\"type\":\"push\",\"items\":[{\"queue\":\"" + q
                + "-x\"}]},{\"type\":\"ack\",\"transactionId\":\"missing\",\"partitionId\":\"nope\"}]}");
        send("POST", "/api/v1/traces", "{\"transactionId\":\"" + prefix + "-look\",\"partitionId\":\"p\","
                + "\"traceNames\":[\"a\"],\"data\":{\"x\":1}}");
        send("GET", "/api/v1/traces?transactionId=" + prefix + "-look", null);
        send("GET", "/api/v1/system/maintenance", null);
        send("POST", "/api/v1/system/maintenance/pop", "{\"enabled\":true}");
        send("GET", "/api/v1/system/maintenance/pop", null);
        send("POST", "/api/v1/system/maintenance/pop", "{\"enabled\":false}");
        send("POST", "/api/v1/system/maintenance", "{\"enabled\":true}");
        try {
            send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "-buffered\"}]}");
        } finally {
            send("POST", "/api/v1/system/maintenance", "{\"enabled\":false}");
        }
        send("GET", "/health", null);
        send("GET", "/api/v1/cluster", null, Map.of(), Set.of("term", "commitIndex", "appliedIndex",
                "lastSnapshotIndex", "matchIndex", "address"));
        send("GET", "/api/v1/resources/overview", null, Map.of(), Set.of("queues", "pending", "reserved", "delayed",
                "failed", "storedMessages", "storedBytes"));
    }

    @Test
    void refusals() {
        String[][] requests = {
            {"POST", "/api/v1/push", "{}"},
            {"POST", "/api/v1/push", "{\"items\":{}}"},
            {"POST", "/api/v1/push", "{\"items\":[{\"payload\":1}]}"},
            {"POST", "/api/v1/push", "{\"items\":[{\"queue\":5}]}"},
            {"POST", "/api/v1/push", "{\"items\":[{\"queue\":\"\"}]}"},
            {"POST", "/api/v1/push", "{\"items\":[5]}"},
            {"POST", "/api/v1/push", "{\"items\":[null]}"},
            {"POST", "/api/v1/push", "{\"items\":[{\"queue\":\"bad/input\"}]}"},
            {"POST", "/api/v1/push", "{\"items\":[{\"queue\":\"bad-input\",\"partition\":7}]}"},
            {"POST", "/api/v1/push", "{\"items\":[{\"queue\":\"bad-input\",\"transactionId\":true}]}"},
            {"POST", "/api/v1/push", "{\"items\":[{\"queue\":\"bad-input\",\"traceId\":\"not-a-uuid\"}]}"},
            {"POST", "/api/v1/push", "{\"items\":[{\"queue\":\"bad-input\",\"delayMs\":-1}]}"},
            {"POST", "/api/v1/push", "{\"items\":[{\"queue\":\"bad-input\",\"delayMs\":\"5\"}]}"},
            {"POST", "/api/v1/push", "{\"items\":[{\"queue\":\"bad-input\",\"availableAt\":\"soon\"}]}"},
            {"POST", "/api/v1/push", "not json"},
            {"POST", "/api/v1/push", "[]"},
            {"POST", "/api/v1/push", "null"},
            {"POST", "/api/v1/push", ""},
            {"POST", "/api/v1/configure", "{}"},
            {"POST", "/api/v1/configure", "{\"queue\":7}"},
            {"POST", "/api/v1/configure", "{\"queue\":\"bad-input\",\"options\":[]}"},
            {"POST", "/api/v1/configure", "{\"queue\":\"bad-input\",\"options\":{\"leaseTime\":\"long\"}}"},
            {"POST", "/api/v1/configure", "{\"queue\":\"bad-input\",\"options\":{\"leaseTime\":0}}"},
            {"POST", "/api/v1/configure", "{\"queue\":\"bad-input\",\"options\":{\"stripes\":5000}}"},
            {"POST", "/api/v1/configure", "{\"queue\":\"bad-input\",\"options\":{\"retentionEnabled\":1}}"},
            {"POST", "/api/v1/configure", "{\"queue\":\"bad-input\",\"namespace\":3}"},
            {"POST", "/api/v1/ack", "{\"transactionId\":\"x\"}"},
            {"POST", "/api/v1/ack", "{\"transactionId\":\"x\",\"partitionId\":\"y\",\"status\":\"weird\"}"},
            {"POST", "/api/v1/ack", "{\"transactionId\":\"x\",\"partitionId\":\"y\",\"delayMs\":-5}"},
            {"POST", "/api/v1/ack", "{\"transactionId\":1,\"partitionId\":\"y\"}"},
            {"POST", "/api/v1/ack", "[]"},
            {"POST", "/api/v1/ack", ""},
            {"POST", "/api/v1/ack/batch", "{}"},
            {"POST", "/api/v1/ack/batch", "{\"acknowledgments\":{}}"},
            {"POST", "/api/v1/ack/batch", "{\"acknowledgments\":[{\"transactionId\":\"x\"}]}"},
            {"POST", "/api/v1/ack/batch", "{\"acknowledgments\":[5]}"},
            {"POST", "/api/v1/ack/batch", "{\"acknowledgments\":[],\"consumerGroup\":5}"},
            {"POST", "/api/v1/transaction", "{\"operations\":[]}"},
            {"POST", "/api/v1/transaction", "{\"operations\":[{\"type\":\"jump\"}]}"},
            {"POST", "/api/v1/transaction", "{\"operations\":[{\"type\":\"push\"}]}"},
            {"POST", "/api/v1/transaction", "{\"operations\":[{\"type\":\"push\",\"items\":[{\"queue\":1}]}]}"},
            {"POST", "/api/v1/transaction", "{\"operations\":[{\"type\":\"ack\",\"transactionId\":\"x\"}]}"},
            {"POST", "/api/v1/transaction", "{\"operations\":[5]}"},
            {"POST", "/api/v1/traces", "{\"transactionId\":\"t\"}"},
            {"POST", "/api/v1/traces", "{\"transactionId\":\"t\",\"partitionId\":\"p\"}"},
            {"POST", "/api/v1/traces", "{\"transactionId\":\"t\",\"partitionId\":\"p\",\"data\":1,\"traceNames\":[1]}"},
            {"POST", "/api/v1/lease/x/extend", "{\"seconds\":0}"},
            {"POST", "/api/v1/lease/x/extend", "{\"seconds\":\"ten\"}"},
            {"POST", "/api/v1/failed-jobs/retry", "{}"},
            {"POST", "/api/v1/failed-jobs/retry", "{\"all\":true,\"queue\":\"x\"}"},
            {"POST", "/api/v1/failed-jobs/retry", "{\"ids\":[]}"},
            {"POST", "/api/v1/failed-jobs/retry", "{\"filter\":5}"},
            {"POST", "/api/v1/failed-jobs/retry", "{\"from\":\"never\"}"},
            {"POST", "/api/v1/failed-jobs/flush", "{\"hours\":-1}"},
            {"POST", "/api/v1/failed-jobs/prune", "{\"hours\":\"x\"}"},
            {"POST", "/api/v1/consumer-groups/g/queues/bad-input/seek", "{}"},
            {"POST", "/api/v1/consumer-groups/g/queues/bad-input/seek", "{\"timestamp\":\"when\"}"},
            {"POST", "/api/v1/consumer-groups/g/subscription", "{}"},
            {"POST", "/api/v1/system/maintenance", "{\"enabled\":\"yes\"}"},
            {"POST", "/api/v1/system/maintenance", "{}"},
            {"GET", "/api/v1/pop/queue/bad-input?batch=0", null},
            {"GET", "/api/v1/pop/queue/bad-input?batch=abc", null},
            {"GET", "/api/v1/pop/queue/bad-input?partitions=0", null},
            {"GET", "/api/v1/pop/queue/bad-input?subscriptionFrom=yesterday", null},
            {"GET", "/api/v1/pop?batch=1&wait=false", null},
            {"GET", "/api/v1/failed-jobs?limit=0", null},
            {"GET", "/api/v1/failed-jobs?from=never", null},
            {"GET", "/api/v1/failed-jobs/unknown", null},
            {"DELETE", "/api/v1/failed-jobs/unknown", null},
            {"POST", "/api/v1/failed-jobs/unknown/retry", "{}"},
            {"GET", "/api/v1/dlq?limit=0", null},
            {"GET", "/api/v1/messages", null},
            {"GET", "/api/v1/messages?limit=0", null},
            {"GET", "/api/v1/monitor", null},
            {"GET", "/api/v1/resources/queues/" + prefix + "-none", null},
            {"GET", "/api/v1/queues/" + prefix + "-none/size", null},
        };
        for (String[] request : requests) {
            send(request[0], request[1], request[2]);
        }
        String q = prefix + "-full";
        send("POST", "/api/v1/configure", "{\"queue\":\"" + q + "\",\"options\":{\"maxSize\":1}}");
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\"}]}");
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\"}]}");
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"payload\":\"" + "x".repeat(9 << 20)
                + "\"}]}");
        send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + "x".repeat(256) + "\"}]}");
    }

    private static String ack(JsonNode message, String status, String extra) {
        return "{\"transactionId\":\"" + message.get("transactionId").asString() + "\",\"partitionId\":\""
                + message.get("partitionId").asString() + "\",\"leaseId\":\"" + message.get("leaseId").asString()
                + "\",\"status\":\"" + status + "\"" + extra + "}";
    }

    /** Keeps the rows of {@code field} whose {@code key} names one of this run's queues. */
    private UnaryOperator<JsonNode> mine(String field, String key) {
        return answer -> {
            ObjectNode copy = ((ObjectNode) answer).deepCopy();
            copy.set(field, filter((ArrayNode) answer.get(field), key));
            return copy;
        };
    }

    private ArrayNode filter(ArrayNode rows, String key) {
        ArrayNode kept = JsonNodeFactory.instance.arrayNode();
        rows.forEach(row -> {
            if (row.get(key).asString().startsWith(prefix)) {
                kept.add(row);
            }
        });
        return kept;
    }

    private JsonNode send(String method, String path, String body) {
        return send(method, path, body, Map.of(), Set.of());
    }

    private JsonNode send(String method, String path, String body, Map<String, String> headers) {
        return send(method, path, body, headers, Set.of());
    }

    private JsonNode send(String method, String path, String body, UnaryOperator<JsonNode> keep) {
        return send(method, path, body, Map.of(), Set.of(), keep);
    }

    private JsonNode send(String method, String path, String body, Map<String, String> headers, Set<String> varying) {
        return send(method, path, body, headers, varying, UnaryOperator.identity());
    }

    /**
     * Sends one request (JSON content type unless {@code headers} name another) and records it; the
     * values under {@code varying} keys are recorded by type only. Answers the body as received.
     */
    private JsonNode send(String method, String path, String body, Map<String, String> headers, Set<String> varying,
                          UnaryOperator<JsonNode> keep) {
        WebTestClient.RequestBodySpec request = http.method(HttpMethod.valueOf(method)).uri(path);
        if (!headers.containsKey(HttpHeaders.CONTENT_TYPE)) {
            request.header(HttpHeaders.CONTENT_TYPE, JSON_TYPE);
        }
        headers.forEach(request::header);
        WebTestClient.RequestHeadersSpec<?> ready = body == null ? request
                : request.bodyValue(body.getBytes(StandardCharsets.UTF_8));
        EntityExchangeResult<byte[]> result = ready.exchange().expectBody().returnResult();
        byte[] bytes = result.getResponseBodyContent();
        String type = result.getResponseHeaders().getFirst(HttpHeaders.CONTENT_TYPE);
        boolean json = type != null && type.contains("json");
        JsonNode answer = bytes == null || bytes.length == 0 ? null
                : json ? JSON.readTree(bytes) : JsonNodeFactory.instance.stringNode("<not JSON>");

        ObjectNode exchange = exchanges.addObject();
        exchange.put("request", method + " " + shortened(normalize(path)));
        if (body != null) {
            exchange.put("body", shortened(normalize(body)));
        }
        if (!headers.isEmpty()) {
            exchange.put("headers", normalize(new java.util.TreeMap<>(headers).toString()));
        }
        exchange.put("status", result.getStatus().value());
        exchange.put("contentType", type);
        Set<String> volatileKeys = new java.util.HashSet<>(varying);
        volatileKeys.add("requestId"); // Spring Boot's own error attributes
        exchange.set("answer", answer == null ? null : normalize(keep.apply(answer), volatileKeys));
        return answer;
    }

    private static String shortened(String text) {
        return text.length() > 300 ? text.substring(0, 300) + "…" : text;
    }

    private String normalize(String text) {
        String named = text.replace(prefix, "<run>");
        return TIME.matcher(UUID_TEXT.matcher(named).replaceAll("<uuid>")).replaceAll("<time>");
    }

    private JsonNode normalize(JsonNode node, Set<String> varying) {
        if (node.isString()) {
            return JsonNodeFactory.instance.stringNode(normalize(node.asString()));
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(element -> copy.add(normalize(element, varying)));
            return copy;
        }
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            node.properties().forEach(field -> copy.set(field.getKey(), varying.contains(field.getKey())
                    ? JsonNodeFactory.instance.stringNode("<" + field.getValue().getNodeType() + ">")
                    : normalize(field.getValue(), varying)));
            return copy;
        }
        return node;
    }
}
