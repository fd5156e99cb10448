package io.regina.raft;

import io.regina.testing.BrokerProcess;
import io.regina.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

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
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three real broker processes on loopback: pushes through every node, SIGKILL the leader, a new
 * leader serves pushes and pops, and every acknowledged message is delivered exactly once.
 */
@Timeout(value = 480, unit = TimeUnit.SECONDS)
class ClusterFailoverIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Shorter than the forwarding client's retries, so a push to a node between leaders is tried again. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);

    @Test
    void aNewLeaderServesAndNoAcknowledgedWriteIsLost(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            Set<String> acknowledged = new HashSet<>();
            List<BrokerProcess> all = cluster.nodes();
            for (int i = 0; i < 90; i++) {
                pushUntilAcknowledged(all.get(i % 3), "before-" + i, acknowledged, Duration.ofSeconds(20));
            }

            String leader = cluster.awaitLeader(Duration.ofSeconds(20));
            cluster.kill(leader);
            List<BrokerProcess> survivors = cluster.running();
            String newLeader = cluster.awaitLeader(Duration.ofSeconds(30), leader);
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
        }
    }

    /** Pushes until the node answers 201; a refused or timed-out request (between leaders) is tried again. */
    private void pushUntilAcknowledged(BrokerProcess node, String key, Set<String> acknowledged, Duration timeout) {
        String body = "{\"items\":[{\"queue\":\"failover\",\"transactionId\":\"" + key + "\",\"payload\":{\"key\":\""
                + key + "\"}}]}";
        node.await(timeout, "push " + key + " acknowledged",
                () -> node.send("POST", "/api/v1/push", body, REQUEST_TIMEOUT).statusCode(), status -> status == 201);
        acknowledged.add(key);
    }

    /** Pops with auto-ack until three pops in a row find nothing. */
    private Map<String, Integer> drain(BrokerProcess node) {
        Map<String, Integer> delivered = new HashMap<>();
        AtomicInteger emptyInARow = new AtomicInteger();
        node.await(Duration.ofSeconds(60), "three empty pops in a row", () -> {
            HttpResponse<String> response = node.send("GET", "/api/v1/pop/queue/failover?batch=100&autoAck=true",
                    null, REQUEST_TIMEOUT);
            if (response.statusCode() == 204) {
                return emptyInARow.incrementAndGet();
            }
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            emptyInARow.set(0);
            for (JsonNode message : JSON.readTree(response.body()).get("messages")) {
                delivered.merge(message.get("data").get("key").asString(), 1, Integer::sum);
            }
            return 0;
        }, empties -> empties >= 3);
        return delivered;
    }
}
