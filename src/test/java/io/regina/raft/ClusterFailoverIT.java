package io.regina.raft;

import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three real broker processes on loopback: pushes through every node, SIGKILL the leader, a new
 * leader serves pushes and pops, and every acknowledged message is delivered exactly once.
 */
@Timeout(value = 480, unit = TimeUnit.SECONDS)
class ClusterFailoverIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void aNewLeaderServesAndNoAcknowledgedWriteIsLost(@TempDir Path dir) throws Exception {
        int[] raftPorts = {FreePorts.next(), FreePorts.next(), FreePorts.next()};
        String peers = "n1=127.0.0.1:" + raftPorts[0] + ",n2=127.0.0.1:" + raftPorts[1] + ",n3=127.0.0.1:"
                + raftPorts[2];
        Map<String, BrokerProcess> nodes = new HashMap<>();
        try {
            for (int i = 0; i < 3; i++) {
                String id = "n" + (i + 1);
                nodes.put(id, new BrokerProcess(dir.resolve(id), FreePorts.next(), raftPorts[i],
                        "--regina.node-id=" + id, "--regina.peers=" + peers).launch());
            }
            for (BrokerProcess node : nodes.values()) {
                node.awaitHealthy(Duration.ofSeconds(240));
            }
            Set<String> acknowledged = new HashSet<>();
            List<BrokerProcess> all = new ArrayList<>(nodes.values());
            for (int i = 0; i < 90; i++) {
                pushUntilAcknowledged(all.get(i % 3), "before-" + i, acknowledged, Duration.ofSeconds(20));
            }

            String leader = leaderOf(all.get(0), Duration.ofSeconds(20));
            nodes.get(leader).kill();
            List<BrokerProcess> survivors = new ArrayList<>();
            nodes.forEach((id, node) -> {
                if (!id.equals(leader)) {
                    survivors.add(node);
                }
            });
            String newLeader = leaderOf(survivors.get(0), Duration.ofSeconds(30), leader);
            assertThat(newLeader).isNotEqualTo(leader);

            for (int i = 0; i < 60; i++) {
                pushUntilAcknowledged(survivors.get(i % 2), "after-" + i, acknowledged, Duration.ofSeconds(30));
            }
            Map<String, Integer> delivered = drain(survivors.get(0));
            List<String> lost = new ArrayList<>();
            for (String key : acknowledged) {
                if (!delivered.containsKey(key)) {
                    lost.add(key);
                }
            }
            assertThat(lost).as("acknowledged messages lost across the failover").isEmpty();
            assertThat(delivered.values()).as("messages delivered twice").allMatch(n -> n == 1);
            assertThat(acknowledged).hasSize(150);
        } finally {
            for (BrokerProcess node : nodes.values()) {
                node.kill();
            }
        }
    }

    private void pushUntilAcknowledged(BrokerProcess node, String key, Set<String> acknowledged, Duration timeout)
            throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String body = "{\"items\":[{\"queue\":\"failover\",\"transactionId\":\"" + key + "\",\"payload\":{\"key\":\""
                + key + "\"}}]}";
        while (true) {
            try {
                HttpResponse<String> response = send(node, "POST", "/api/v1/push", body);
                if (response.statusCode() == 201) {
                    acknowledged.add(key);
                    return;
                }
            } catch (java.io.IOException retry) {
                // the node is between leaders; try again until the deadline
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("push " + key + " not acknowledged within " + timeout + "\n" + node.logTail());
            }
            Thread.sleep(200);
        }
    }

    private String leaderOf(BrokerProcess node, Duration timeout, String... notThese) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                JsonNode cluster = JSON.readTree(send(node, "GET", "/api/v1/cluster", null).body());
                JsonNode leader = cluster.get("leaderId");
                if (leader != null && !leader.isNull() && !List.of(notThese).contains(leader.asString())) {
                    return leader.asString();
                }
            } catch (java.io.IOException notYet) {
                // keep asking
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no leader within " + timeout + "\n" + node.logTail());
    }

    private Map<String, Integer> drain(BrokerProcess node) throws Exception {
        Map<String, Integer> delivered = new HashMap<>();
        int emptyInARow = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (emptyInARow < 3 && System.nanoTime() < deadline) {
            HttpResponse<String> response = send(node, "GET", "/api/v1/pop/queue/failover?batch=100&autoAck=true",
                    null);
            if (response.statusCode() == 204) {
                emptyInARow++;
                Thread.sleep(300);
                continue;
            }
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            emptyInARow = 0;
            for (JsonNode message : JSON.readTree(response.body()).get("messages")) {
                delivered.merge(message.get("data").get("key").asString(), 1, Integer::sum);
            }
        }
        return delivered;
    }

    private HttpResponse<String> send(BrokerProcess node, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.baseUrl() + path))
                .timeout(Duration.ofSeconds(15)).header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
