package io.regina.faults;

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

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader is SIGKILLed while two workers, one on each follower, pop and ack in steady loops on keep-alive
 * connections, so that their acks carry their next pops ({@code NextPops}) when the leader dies. Every message is
 * still acknowledged in the end: a next pop lost with the leader, or held by a follower whose entry never
 * committed, leaves a lease that expires (3 s here), and the message comes back.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class NextPopsFailoverIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int MESSAGES = 600;
    private static final int KILL_AFTER_ACKS = 150;
    private static final long DRAIN_MS = 180_000;

    @Test
    void everyMessageIsAcknowledgedAcrossALeaderKilledUnderSteadyWorkers(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3, "--regina.next-pop.quick-return-ms=60000")) {
            String leader = ClusterProbe.awaitLeader(cluster.nodes(), Set.of(), FaultRun.LEADER_TIMEOUT);
            List<BrokerProcess> followers = cluster.nodes().stream().filter(n -> n != cluster.node(leader)).toList();
            BrokerProcess first = cluster.node(leader);
            assertThat(first.send("POST", "/api/v1/configure",
                    "{\"queue\":\"steady\",\"options\":{\"leaseTime\":3,\"stripes\":4}}").statusCode()).isEqualTo(200);
            StringBuilder items = new StringBuilder();
            for (int n = 0; n < MESSAGES; n++) {
                items.append(n == 0 ? "" : ",").append("{\"queue\":\"steady\",\"transactionId\":\"m-").append(n)
                        .append("\",\"payload\":{}}");
            }
            assertThat(first.send("POST", "/api/v1/push", "{\"items\":[" + items + "]}").statusCode()).isEqualTo(201);

            Set<String> acked = ConcurrentHashMap.newKeySet();
            AtomicInteger deliveries = new AtomicInteger();
            long deadline = System.currentTimeMillis() + DRAIN_MS;
            List<CompletableFuture<Void>> workers = followers.stream().map(node -> CompletableFuture.runAsync(
                    () -> work(node, acked, deliveries, deadline))).toList();
            while (acked.size() < KILL_AFTER_ACKS && System.currentTimeMillis() < deadline) {
                Thread.sleep(5);
            }
            cluster.kill(leader);
            String next = ClusterProbe.awaitLeader(followers, Set.of(leader), FaultRun.LEADER_TIMEOUT);
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(DRAIN_MS + 60_000, TimeUnit.MILLISECONDS);

            JsonNode size = JSON.readTree(cluster.node(next).send("GET", "/api/v1/queues/steady/size", null).body());
            double taken = 0;
            for (BrokerProcess node : followers) {
                taken += JSON.readTree(node.send("GET", "/actuator/metrics/regina.pops.next?tag=outcome:taken", null)
                        .body()).path("measurements").get(0).path("value").asDouble();
            }
            System.out.println("FAULT LANE lane=next-pops-failover acknowledged=" + acked.size() + " of " + MESSAGES
                    + " deliveries=" + deliveries.get() + " nextPopsTaken=" + (long) taken + " sizeAfter="
                    + size.path("size").asLong());
            assertThat(acked).as("acknowledged").hasSize(MESSAGES);
            assertThat(taken).as("pops answered from the acks' entries").isPositive();
            assertThat(size.path("size").asLong()).isZero();
        }
    }

    /** Pops and acks on one connection to {@code node} until every message is acked; a broken connection is replaced. */
    private static void work(BrokerProcess node, Set<String> acked, AtomicInteger deliveries, long deadline) {
        int port = URI.create(node.baseUrl()).getPort();
        while (acked.size() < MESSAGES && System.currentTimeMillis() < deadline) {
            try (Connection worker = RawHttp.connect(port)) {
                while (acked.size() < MESSAGES && System.currentTimeMillis() < deadline) {
                    Answer popped = worker.send(RawHttp.get("/api/v1/pop/queue/steady?batch=1&wait=true&timeout=1000", ""));
                    if (popped.status() != 200) {
                        continue; // 204, or the cluster between leaders
                    }
                    JsonNode message = popped.json().path("messages").get(0);
                    deliveries.incrementAndGet();
                    Answer answer = worker.send(RawHttp.post("/api/v1/ack", "{\"transactionId\":\""
                            + message.path("transactionId").asString() + "\",\"partitionId\":\""
                            + message.path("partitionId").asString() + "\",\"leaseId\":\""
                            + message.path("leaseId").asString() + "\",\"status\":\"completed\"}", ""));
                    if (answer.status() == 200 && answer.json().get(0).path("success").asBoolean()) {
                        acked.add(message.path("transactionId").asString());
                    }
                }
            } catch (IOException brokenOrSlow) {
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
