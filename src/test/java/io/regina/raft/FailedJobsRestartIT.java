package io.regina.raft;

import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpResponse;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failed-jobs table survives a graceful restart (snapshot) and a SIGKILL (log replay), and a
 * retried job that fails again keeps its lineage.
 */
class FailedJobsRestartIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void failedJobsAndLineageSurviveRestarts(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        int httpPort = FreePorts.next();
        int raftPort = FreePorts.next();
        String first;
        String second;
        try (BrokerProcess broker = new BrokerProcess(data, httpPort, raftPort,
                "--regina.raft.snapshot-threshold=5").start()) {
            for (int i = 0; i < 3; i++) {
                send(broker, "POST", "/api/v1/push",
                        "{\"items\":[{\"queue\":\"jobs\",\"payload\":{\"n\":" + i + "}}]}");
                failNext(broker, "broken " + i);
            }
            first = rows(broker).get("items").get(2).get("uuid").asString();
            send(broker, "POST", "/api/v1/failed-jobs/" + first + "/retry", "{}");
            failNext(broker, "broken again");
            JsonNode newest = rows(broker).get("items").get(0);
            second = newest.get("uuid").asString();
            assertThat(newest.get("retryOf").asString()).isEqualTo(first);
        }
        try (BrokerProcess graceful = new BrokerProcess(data, httpPort, raftPort).start()) {
            JsonNode rows = rows(graceful);
            assertThat(rows.get("total").asLong()).isEqualTo(3);
            assertThat(rows.get("items").get(0).get("uuid").asString()).isEqualTo(second);
            assertThat(rows.get("items").get(0).get("retryOf").asString()).isEqualTo(first);
            send(graceful, "POST", "/api/v1/push", "{\"items\":[{\"queue\":\"jobs\",\"payload\":{}}]}");
            failNext(graceful, "after the restart");
            graceful.kill();
        }
        try (BrokerProcess killed = new BrokerProcess(data, httpPort, raftPort).start()) {
            JsonNode rows = rows(killed);
            assertThat(rows.get("total").asLong()).isEqualTo(4);
            assertThat(rows.get("items").get(0).get("error").asString()).isEqualTo("after the restart");
            assertThat(rows.get("items").get(1).get("retryOf").asString()).isEqualTo(first);
        }
    }

    private void failNext(BrokerProcess broker, String error) throws Exception {
        JsonNode message = JSON.readTree(send(broker, "GET", "/api/v1/pop/queue/jobs", null).body())
                .get("messages").get(0);
        send(broker, "POST", "/api/v1/ack", "{\"transactionId\":\"" + message.get("transactionId").asString()
                + "\",\"partitionId\":\"" + message.get("partitionId").asString() + "\",\"status\":\"dlq\",\"error\":\""
                + error + "\"}");
    }

    private JsonNode rows(BrokerProcess broker) throws Exception {
        return JSON.readTree(send(broker, "GET", "/api/v1/failed-jobs?queue=jobs", null).body());
    }

    /** One request that must succeed (200 or 201). */
    private HttpResponse<String> send(BrokerProcess broker, String method, String path, String body) throws Exception {
        HttpResponse<String> response = broker.send(method, path, body);
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isBetween(200, 201);
        return response;
    }
}
