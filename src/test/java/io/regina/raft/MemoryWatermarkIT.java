package io.regina.raft;

import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broker with a small heap turns pushes away with 429 and a clear error once its memory fills,
 * stays up and serving, and accepts pushes again once the backlog is gone.
 */
class MemoryWatermarkIT {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void aFullHeapAnswers429InsteadOfDying(@TempDir Path dir) throws Exception {
        try (BrokerProcess broker = new BrokerProcess(dir.resolve("data"), FreePorts.next(), FreePorts.next(),
                "-Xmx192m", "-XX:TieredStopAtLevel=1").start()) {
            String payload = "\"" + "m".repeat(64 * 1024) + "\"";
            StringBuilder items = new StringBuilder();
            for (int i = 0; i < 50; i++) {
                items.append(i == 0 ? "" : ",").append("{\"queue\":\"hog\",\"payload\":").append(payload).append('}');
            }
            String body = "{\"items\":[" + items + "]}";
            HttpResponse<String> last = null;
            for (int i = 0; i < 400; i++) {
                last = send(broker, "POST", "/api/v1/push", body);
                if (last.statusCode() != 201) {
                    break;
                }
            }
            assertThat(last.statusCode()).as(last.body()).isEqualTo(429);
            assertThat(last.body()).contains("memory is full");
            assertThat(broker.isAlive()).isTrue();
            assertThat(send(broker, "GET", "/health", null).statusCode()).isEqualTo(200);
            assertThat(send(broker, "GET", "/api/v1/pop/queue/hog?batch=1&autoAck=true", null).statusCode())
                    .isEqualTo(200);

            assertThat(send(broker, "DELETE", "/api/v1/resources/queues/hog", null).statusCode()).isEqualTo(200);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            int status = 0;
            while (System.nanoTime() < deadline) {
                status = send(broker, "POST", "/api/v1/push", "{\"items\":[{\"queue\":\"small\",\"payload\":1}]}")
                        .statusCode();
                if (status == 201) {
                    break;
                }
                Thread.sleep(50);
            }
            assertThat(status).as("pushes are accepted again once the backlog is gone").isEqualTo(201);
        }
    }

    private HttpResponse<String> send(BrokerProcess broker, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(broker.baseUrl() + path))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
