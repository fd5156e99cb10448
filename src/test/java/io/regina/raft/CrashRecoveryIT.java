package io.regina.raft;

import io.regina.testing.BrokerProcess;
import io.regina.testing.Eventually;
import io.regina.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real jar, SIGKILLed while producers push: after a restart on the same data every
 * acknowledged message is there, and none twice.
 */
class CrashRecoveryIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void everyAcknowledgedPushSurvivesSigkill(@TempDir Path dir) throws Exception {
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        try (TestCluster cluster = TestCluster.start(dir, 1)) {
            BrokerProcess broker = cluster.node("n1");
            ExecutorService producers = Executors.newFixedThreadPool(8);
            for (int p = 0; p < 8; p++) {
                int producer = p;
                producers.submit(() -> {
                    for (int i = 0; i < 100_000; i++) {
                        String key = producer + "-" + i;
                        try {
                            HttpResponse<String> response = broker.send("POST", "/api/v1/push",
                                    "{\"items\":[{\"queue\":\"crash\",\"transactionId\":\"" + key
                                            + "\",\"payload\":{\"key\":\"" + key + "\"}}]}");
                            if (response.statusCode() == 201) {
                                acknowledged.add(key);
                            }
                        } catch (Exception killed) {
                            return;
                        }
                    }
                });
            }
            // the kill comes at 3,000 acknowledged pushes, or after 30 s on a slow machine
            Eventually.within(Duration.ofSeconds(30), () -> acknowledged.size() >= 3000);
            cluster.kill("n1");
            producers.shutdownNow();
            assertThat(producers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            assertThat(acknowledged).hasSizeGreaterThan(100);

            BrokerProcess restarted = cluster.restart("n1");
            Map<String, Integer> seen = new HashMap<>();
            while (true) {
                HttpResponse<String> response = restarted.send("GET", "/api/v1/pop/queue/crash?batch=1000&autoAck=true",
                        null);
                if (response.statusCode() == 204) {
                    break;
                }
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                for (JsonNode message : JSON.readTree(response.body()).get("messages")) {
                    seen.merge(message.get("data").get("key").asString(), 1, Integer::sum);
                }
            }
            List<String> missing = new ArrayList<>();
            for (String key : acknowledged) {
                if (!seen.containsKey(key)) {
                    missing.add(key);
                }
            }
            assertThat(missing).as("acknowledged pushes lost by the crash").isEmpty();
            assertThat(seen.values()).as("messages delivered twice").allMatch(count -> count == 1);
        }
    }
}
