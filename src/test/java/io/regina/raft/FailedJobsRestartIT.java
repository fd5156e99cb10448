package io.regina.raft;

import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failed-jobs table survives a graceful restart (snapshot) and a SIGKILL (log replay), and a
 * retried job that fails again keeps its lineage.
 */
class FailedJobsRestartIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void failedJobsAndLineageSurviveRestarts(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        int httpPort = FreePorts.next();
        int raftPort = FreePorts.next();
        String first;
        String second;
        try (BrokerProcess broker = new BrokerProcess(data, httpPort, raftPort,
                "--regina.raft.snapshot-threshold=5").start()) {
            String base = broker.baseUrl();
            for (int i = 0; i < 3; i++) {
                send(base, "POST", "/api/v1/push", "{\"items\":[{\"queue\":\"jobs\",\"payload\":{\"n\":" + i + "}}]}");
                failNext(base, "broken " + i);
            }
            first = rows(base).get("items").get(2).get("uuid").asString();
            send(base, "POST", "/api/v1/failed-jobs/" + first + "/retry", "{}");
            failNext(base, "broken again");
            JsonNode newest = rows(base).get("items").get(0);
            second = newest.get("uuid").asString();
            assertThat(newest.get("retryOf").asString()).isEqualTo(first);
        }
        try (BrokerProcess graceful = new BrokerProcess(data, httpPort, raftPort).start()) {
            JsonNode rows = rows(graceful.baseUrl());
            assertThat(rows.get("total").asLong()).isEqualTo(3);
            assertThat(rows.get("items").get(0).get("uuid").asString()).isEqualTo(second);
            assertThat(rows.get("items").get(0).get("retryOf").asString()).isEqualTo(first);
            send(graceful.baseUrl(), "POST", "/api/v1/push", "{\"items\":[{\"queue\":\"jobs\",\"payload\":{}}]}");
            failNext(graceful.baseUrl(), "after the restart");
            graceful.kill();
        }
        try (BrokerProcess killed = new BrokerProcess(data, httpPort, raftPort).start()) {
            JsonNode rows = rows(killed.baseUrl());
            assertThat(rows.get("total").asLong()).isEqualTo(4);
            assertThat(rows.get("items").get(0).get("error").asString()).isEqualTo("after the restart");
            assertThat(rows.get("items").get(1).get("retryOf").asString()).isEqualTo(first);
        }
    }

    private void failNext(String base, String error) throws Exception {
        JsonNode message = JSON.readTree(send(base, "GET", "/api/v1/pop/queue/jobs", null).body())
                .get("messages").get(0);
        send(base, "POST", "/api/v1/ack", "{\"transactionId\":\"" + message.get("transactionId").asString()
                + "\",\"partitionId\":\"" + message.get("partitionId").asString() + "\",\"status\":\"dlq\",\"error\":\""
                + error + "\"}");
    }

    private JsonNode rows(String base) throws Exception {
        return JSON.readTree(send(base, "GET", "/api/v1/failed-jobs?queue=jobs", null).body());
    }

    private HttpResponse<String> send(String base, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isBetween(200, 201);
        return response;
    }
}
