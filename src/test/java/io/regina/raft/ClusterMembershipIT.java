package io.regina.raft;

import io.regina.cli.ReginaCli;
import io.regina.testing.BrokerProcess;
import io.regina.testing.Eventually;
import io.regina.testing.FreePorts;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Membership changes under load, with real broker processes: a three-node cluster takes pushes while a
 * fourth node, started with {@code regina.join}, is added with {@code queue:cluster add} and the leader is
 * removed through {@code DELETE /api/v1/cluster/members/{id}}. No acknowledged push is lost, pushes keep being answered, and the new
 * node holds every message. Bad changes get their 4xx.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class ClusterMembershipIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);
    private static final String QUEUE = "members";

    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private final AtomicLong lastAnswerNanos = new AtomicLong();
    private final AtomicLong longestGapNanos = new AtomicLong();

    @Test
    void addANodeAndRemoveTheLeaderUnderLoad(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            String leaderId = cluster.awaitLeader(Duration.ofSeconds(30));
            List<String> stay = Stream.of("n1", "n2", "n3").filter(id -> !id.equals(leaderId)).toList();
            BrokerProcess admin = cluster.node(stay.get(0));

            int joinerRaftPort = FreePorts.next();
            BrokerProcess joiner = new BrokerProcess(dir.resolve("n4"), FreePorts.next(), joinerRaftPort,
                    "--regina.node-id=n4", "--regina.join=true");
            try (BrokerProcess n4 = joiner.start()) {
                assertThat(JSON.readTree(n4.send("GET", "/api/v1/cluster", null).body()).get("leaderId").isNull())
                        .as("a joining node knows no leader before it is added").isTrue();
                refusals(admin, leaderId);

                AtomicBoolean running = new AtomicBoolean(true);
                lastAnswerNanos.set(System.nanoTime());
                List<Thread> producers = new ArrayList<>();
                for (int p = 0; p < 2; p++) {
                    BrokerProcess target = cluster.node(stay.get(p));
                    int producer = p;
                    Thread thread = new Thread(() -> {
                        for (int i = 0; running.get(); i++) {
                            push(target, "p" + producer + "-" + i);
                        }
                    }, "producer-" + p);
                    thread.start();
                    producers.add(thread);
                }
                awaitAcknowledged(100);

                String n4Http = n4.baseUrl().substring(n4.baseUrl().lastIndexOf(':') + 1);
                assertThat(ReginaCli.run("queue:cluster", "add", "n4", "127.0.0.1:" + joinerRaftPort + ":" + n4Http,
                        "--url=" + admin.baseUrl())).as("queue:cluster add").isEqualTo(ReginaCli.OK);
                assertThat(ids(JSON.readTree(admin.send("GET", "/api/v1/cluster", null).body()).get("peers")))
                        .containsExactlyInAnyOrder("n1", "n2", "n3", "n4");
                awaitAcknowledged(acknowledged.size() + 100);

                HttpResponse<String> removed = admin.send("DELETE", "/api/v1/cluster/members/" + leaderId, null,
                        Duration.ofSeconds(120));
                assertThat(removed.statusCode()).as(removed.body()).isEqualTo(200);
                assertThat(ids(JSON.readTree(removed.body()).get("members"))).containsExactlyInAnyOrder(
                        Stream.concat(stay.stream(), Stream.of("n4")).toArray(String[]::new));
                cluster.kill(leaderId);
                awaitLeaderOn(n4, leaderId);
                awaitAcknowledged(acknowledged.size() + 100);
                running.set(false);
                for (Thread producer : producers) {
                    producer.join(60_000);
                }

                JsonNode view = JSON.readTree(n4.send("GET", "/api/v1/cluster", null).body());
                assertThat(ids(view.get("peers"))).containsExactlyInAnyOrder(
                        Stream.concat(stay.stream(), Stream.of("n4")).toArray(String[]::new));
                assertThat(view.get("peers")).allSatisfy(peer -> assertThat(peer.has("lastContactMs")).isTrue());
                long acked = acknowledged.size();
                n4.await(Duration.ofSeconds(60), "n4 holding every acknowledged message",
                        () -> JSON.readTree(n4.send("GET", "/api/v1/queues/" + QUEUE + "/size", null).body())
                                .get("size").asLong(), size -> size >= acked);

                Map<String, Integer> delivered = drain(n4);
                List<String> lost = acknowledged.stream().filter(key -> !delivered.containsKey(key)).toList();
                System.out.printf("membership change under load: %d pushes acknowledged, %d lost, longest gap "
                        + "between answered pushes %d ms%n", acked, lost.size(),
                        TimeUnit.NANOSECONDS.toMillis(longestGapNanos.get()));
                assertThat(lost).as("acknowledged pushes lost across the membership changes").isEmpty();
                assertThat(delivered.values()).as("messages delivered twice").allMatch(n -> n == 1);
                assertThat(Duration.ofNanos(longestGapNanos.get())).as("longest time without an answered push")
                        .isLessThan(Duration.ofSeconds(20));

                // restarts keep the new membership: the stored configuration wins over regina.peers' old list
                String[] members = Stream.concat(stay.stream(), Stream.of("n4")).toArray(String[]::new);
                n4.stop();
                n4.start();
                cluster.stop(stay.get(0));
                cluster.restart(stay.get(0));
                for (BrokerProcess node : List.of(n4, cluster.node(stay.get(0)))) {
                    awaitLeaderOn(node, leaderId);
                    assertThat(ids(JSON.readTree(node.send("GET", "/api/v1/cluster", null).body()).get("peers")))
                            .as("members after a restart").containsExactlyInAnyOrder(members);
                }
            }
        }
    }

    /** Unknown id, malformed input, an id already in the group: each its 4xx, nothing changed. */
    private static void refusals(BrokerProcess admin, String leaderId) throws Exception {
        assertStatus(admin.send("DELETE", "/api/v1/cluster/members/n9", null), 404, "MEMBER_NOT_FOUND");
        assertStatus(admin.send("POST", "/api/v1/cluster/members", "{\"id\":\"n9\",\"address\":\"nohost\"}"), 400,
                "BAD_REQUEST");
        assertStatus(admin.send("POST", "/api/v1/cluster/members", "{\"id\":\"n9\",\"address\":\"h:99999\"}"), 400,
                "BAD_REQUEST");
        assertStatus(admin.send("POST", "/api/v1/cluster/members", "{\"id\":\"a/b\",\"address\":\"h:1\"}"), 400,
                "BAD_REQUEST");
        assertStatus(admin.send("POST", "/api/v1/cluster/members", "{\"address\":\"h:1\"}"), 400, "BAD_REQUEST");
        assertStatus(admin.send("POST", "/api/v1/cluster/members", "{\"id\":\"" + leaderId
                + "\",\"address\":\"h:1\"}"), 409, "MEMBER_EXISTS");
    }

    private static void assertStatus(HttpResponse<String> response, int status, String code) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(JSON.readTree(response.body()).get("code").asString()).isEqualTo(code);
    }

    private static List<String> ids(JsonNode members) {
        List<String> ids = new ArrayList<>();
        members.forEach(m -> ids.add(m.get("id").asString()));
        return ids;
    }

    private static void awaitLeaderOn(BrokerProcess node, String notThis) {
        node.await(Duration.ofSeconds(30), "a leader other than " + notThis,
                () -> JSON.readTree(node.send("GET", "/api/v1/cluster", null).body()).get("leaderId"),
                id -> id != null && !id.isNull() && !id.asString().equals(notThis));
    }

    private void awaitAcknowledged(int count) {
        Eventually.await(Duration.ofSeconds(90), count + " acknowledged pushes",
                () -> acknowledged.size() >= count);
    }

    /** One push; a 201 is recorded as acknowledged, and the time since the previous answer as a gap. */
    private void push(BrokerProcess node, String key) {
        String body = "{\"items\":[{\"queue\":\"" + QUEUE + "\",\"transactionId\":\"" + key
                + "\",\"payload\":{\"key\":\"" + key + "\"}}]}";
        try {
            if (node.send("POST", "/api/v1/push", body, REQUEST_TIMEOUT).statusCode() == 201) {
                acknowledged.add(key);
                long now = System.nanoTime();
                long previous = lastAnswerNanos.getAndSet(now);
                longestGapNanos.accumulateAndGet(now - previous, Math::max);
            }
        } catch (Exception e) {
            // unknown outcome: not acknowledged, so not checked; the producer goes on
        }
    }

    /** Pops with auto-ack until three pops in a row find nothing. */
    private static Map<String, Integer> drain(BrokerProcess node) {
        Map<String, Integer> delivered = new HashMap<>();
        AtomicInteger emptyInARow = new AtomicInteger();
        node.await(Duration.ofSeconds(90), "three empty pops in a row", () -> {
            HttpResponse<String> response = node.send("GET", "/api/v1/pop/queue/" + QUEUE
                    + "?batch=500&autoAck=true", null, REQUEST_TIMEOUT);
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
