package io.regina.raft;

import io.regina.testing.BrokerProcess;
import io.regina.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broker with a small heap turns pushes away with 429 and a clear error once its memory fills,
 * stays up and serving, and accepts pushes again once the backlog is gone.
 */
class MemoryWatermarkIT {
    @Test
    void aFullHeapAnswers429InsteadOfDying(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 1, "-Xmx192m", "-XX:TieredStopAtLevel=1")) {
            BrokerProcess broker = cluster.node("n1");
            String payload = "\"" + "m".repeat(64 * 1024) + "\"";
            StringBuilder items = new StringBuilder();
            for (int i = 0; i < 50; i++) {
                items.append(i == 0 ? "" : ",").append("{\"queue\":\"hog\",\"payload\":").append(payload).append('}');
            }
            String body = "{\"items\":[" + items + "]}";
            HttpResponse<String> last = null;
            for (int i = 0; i < 400; i++) {
                try {
                    last = broker.send("POST", "/api/v1/push", body);
                } catch (IOException e) {
                    throw new AssertionError("push " + i + " got no answer (" + e.getMessage() + ")\n"
                            + broker.logTail(), e);
                }
                if (last.statusCode() != 201) {
                    break;
                }
            }
            assertThat(last.statusCode()).as(last.body() + "\n" + broker.logTail()).isEqualTo(429);
            assertThat(last.body()).contains("memory is full");
            assertThat(broker.isAlive()).isTrue();
            HttpResponse<String> health = broker.send("GET", "/health", null);
            assertThat(health.statusCode()).as(health.body() + "\n" + broker.logTail()).isEqualTo(200);
            HttpResponse<String> pop = broker.send("GET", "/api/v1/pop/queue/hog?batch=1&autoAck=true", null);
            assertThat(pop.statusCode()).as(pop.body() + "\n" + broker.logTail()).isEqualTo(200);

            assertThat(broker.send("DELETE", "/api/v1/resources/queues/hog", null).statusCode()).isEqualTo(200);
            broker.await(Duration.ofSeconds(60), "pushes accepted again once the backlog is gone",
                    () -> broker.send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"small\",\"payload\":1}]}")
                            .statusCode(), status -> status == 201);
        }
    }
}
