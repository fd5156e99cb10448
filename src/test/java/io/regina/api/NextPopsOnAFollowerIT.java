package io.regina.api;

import io.regina.testing.BrokerProcess;
import io.regina.testing.RawHttp;
import io.regina.testing.RawHttp.Answer;
import io.regina.testing.RawHttp.Connection;
import io.regina.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker in a steady pop-ack loop on a follower of a three-node cluster: its acks and the next pops made in
 * their entries ({@link NextPops}) go to the leader together, and the worker still gets every message once, in
 * order, one attempt each, as from the leader. A "quick" return is a minute here, so a slow machine's loop counts.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class NextPopsOnAFollowerIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int MESSAGES = 10;

    @Test
    void aSteadyWorkerOnAFollowerGetsEveryMessageOnceInOrder(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, "--regina.next-pop.quick-return-ms=60000")) {
            String leader = cluster.awaitLeader(Duration.ofSeconds(60));
            BrokerProcess follower = cluster.nodes().stream().filter(n -> n != cluster.node(leader)).findFirst()
                    .orElseThrow();
            StringBuilder items = new StringBuilder();
            for (int n = 0; n < MESSAGES; n++) {
                items.append(n == 0 ? "" : ",").append("{\"queue\":\"steady\",\"payload\":{\"n\":").append(n).append("}}");
            }
            HttpResponse<String> pushed = follower.send("POST", "/api/v1/push", "{\"items\":[" + items + "]}");
            assertThat(pushed.statusCode()).as(pushed.body()).isEqualTo(201);

            List<Integer> seen = new ArrayList<>();
            try (Connection worker = RawHttp.connect(URI.create(follower.baseUrl()).getPort())) {
                for (int i = 0; i < MESSAGES; i++) {
                    Answer popped = worker.send(RawHttp.get("/api/v1/pop/queue/steady?batch=1&wait=true&timeout=10000",
                            ""));
                    assertThat(popped.status()).as("pop %d", i).isEqualTo(200);
                    JsonNode message = popped.json().path("messages").get(0);
                    assertThat(message.path("attempts").asInt()).isEqualTo(1);
                    seen.add(message.path("data").path("n").asInt());
                    Answer acked = worker.send(RawHttp.post("/api/v1/ack", "{\"transactionId\":\""
                            + message.path("transactionId").asString() + "\",\"partitionId\":\""
                            + message.path("partitionId").asString() + "\",\"leaseId\":\""
                            + message.path("leaseId").asString() + "\",\"status\":\"completed\"}", ""));
                    assertThat(acked.json().get(0).path("success").asBoolean()).as("ack %d", i).isTrue();
                }
                assertThat(worker.send(RawHttp.get("/api/v1/pop/queue/steady?batch=1&wait=false", "")).status())
                        .isEqualTo(204);
            }
            assertThat(seen).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
            JsonNode taken = JSON.readTree(follower.send("GET",
                    "/actuator/metrics/regina.pops.next?tag=outcome:taken", null).body());
            assertThat(taken.path("measurements").get(0).path("value").asDouble())
                    .as("pops 4 to 10 answered from the acks' entries").isEqualTo(7);
            JsonNode size = JSON.readTree(cluster.node(leader).send("GET", "/api/v1/queues/steady/size", null).body());
            assertThat(size.path("size").asLong()).isZero();
        }
    }
}
