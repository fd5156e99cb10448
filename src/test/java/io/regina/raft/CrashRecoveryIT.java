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
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void everyAcknowledgedPushSurvivesSigkill(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        int httpPort = FreePorts.next();
        int raftPort = FreePorts.next();
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        BrokerProcess broker = new BrokerProcess(data, httpPort, raftPort).start();
        try {
            ExecutorService producers = Executors.newFixedThreadPool(8);
            for (int p = 0; p < 8; p++) {
                int producer = p;
                producers.submit(() -> {
                    for (int i = 0; i < 100_000; i++) {
                        String key = producer + "-" + i;
                        try {
                            HttpResponse<String> response = send(broker.baseUrl(), "POST", "/api/v1/push",
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
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (acknowledged.size() < 3000 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            broker.kill();
            producers.shutdownNow();
            assertThat(producers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            broker.kill();
        }
        assertThat(acknowledged).hasSizeGreaterThan(100);

        BrokerProcess restarted = new BrokerProcess(data, httpPort, raftPort).start();
        try {
            Map<String, Integer> seen = new HashMap<>();
            while (true) {
                HttpResponse<String> response = send(restarted.baseUrl(), "GET",
                        "/api/v1/pop/queue/crash?batch=1000&autoAck=true", null);
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
        } finally {
            restarted.close();
        }
    }

    private HttpResponse<String> send(String base, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
