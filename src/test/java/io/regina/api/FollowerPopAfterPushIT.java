package io.regina.api;

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
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Read-your-writes on a follower: a push answered through a follower is applied by the leader first,
 * and by the follower a moment later. A pop sent to the same follower right after the answer, without
 * {@code wait=true}, must still deliver the message, not answer 204 from the follower's trailing state.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FollowerPopAfterPushIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int ROUNDS = 200;

    @Test
    void aPopRightAfterAPushThroughTheSameFollowerDeliversIt(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            String leader = cluster.awaitLeader(Duration.ofSeconds(60));
            BrokerProcess follower = cluster.nodes().stream().filter(n -> n != cluster.node(leader)).findFirst()
                    .orElseThrow();
            assertThat(follower.send("POST", "/api/v1/configure", "{\"queue\":\"ryw\"}").statusCode())
                    .isEqualTo(200);

            for (int i = 0; i < ROUNDS; i++) {
                HttpResponse<String> pushed = follower.send("POST", "/api/v1/push",
                        "{\"items\":[{\"queue\":\"ryw\",\"transactionId\":\"ryw-" + i + "\",\"payload\":{}}]}");
                assertThat(pushed.statusCode()).as(pushed.body()).isEqualTo(201);
                assertThat(JSON.readTree(pushed.body()).get(0).get("status").asString()).isEqualTo("queued");

                HttpResponse<String> popped = follower.send("GET", "/api/v1/pop/queue/ryw?batch=1", null);
                assertThat(popped.statusCode()).as("round " + i + ": a pop right after the push " + popped.body())
                        .isEqualTo(200);
                JsonNode message = JSON.readTree(popped.body()).get("messages").get(0);
                assertThat(message.get("transactionId").asString()).isEqualTo("ryw-" + i);
                assertThat(follower.send("POST", "/api/v1/ack", "{\"transactionId\":\"ryw-" + i
                        + "\",\"partitionId\":\"" + message.get("partitionId").asString() + "\",\"leaseId\":\""
                        + message.get("leaseId").asString() + "\",\"status\":\"completed\"}").statusCode())
                        .isEqualTo(200);
            }
        }
    }
}
