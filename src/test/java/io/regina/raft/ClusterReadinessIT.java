package io.regina.raft;

import io.regina.testing.BrokerProcess;
import io.regina.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three real broker processes, frozen with SIGSTOP by the process ids this test started: a leader whose
 * two followers are frozen, and then a follower whose leader and other follower are, cannot reach a
 * majority, so its readiness is DOWN while its liveness stays UP; after SIGCONT every node is ready again.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClusterReadinessIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String READINESS = "/actuator/health/readiness";
    private static final String LIVENESS = "/actuator/health/liveness";
    private static final List<String> IDS = List.of("n1", "n2", "n3");

    @Test
    void aNodeWithoutAMajorityIsNotReadyButAlive(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            awaitAllReady(cluster);
            String leaderId = cluster.awaitLeader(Duration.ofSeconds(30));
            BrokerProcess leader = cluster.node(leaderId);
            for (JsonNode peer : JSON.readTree(leader.send("GET", "/api/v1/cluster", null).body()).get("peers")) {
                assertThat(peer.get("lag").asLong()).as("lag of " + peer).isBetween(0L, 1_000L);
                assertThat(peer.get("lastContactMs").asLong()).as("last contact of " + peer).isBetween(0L, 2_000L);
            }
            List<String> followers = IDS.stream().filter(id -> !id.equals(leaderId)).toList();

            cutOff(cluster, leaderId, followers);
            awaitAllReady(cluster);

            String follower = followers.get(0);
            cluster.awaitLeader(Duration.ofSeconds(30));
            cutOff(cluster, follower, IDS.stream().filter(id -> !id.equals(follower)).toList());
            awaitAllReady(cluster);
        }
    }

    /** Freezes {@code frozen}, waits for {@code survivor}'s readiness to go DOWN, checks it is alive, thaws. */
    private static void cutOff(TestCluster cluster, String survivor, List<String> frozen) throws Exception {
        BrokerProcess node = cluster.node(survivor);
        long started = System.nanoTime();
        try {
            for (String id : frozen) {
                signal("STOP", cluster.pid(id));
            }
            HttpResponse<String> down = node.await(Duration.ofSeconds(30), survivor + " not ready",
                    () -> node.send("GET", READINESS, null, Duration.ofSeconds(5)), r -> r.statusCode() == 503);
            JsonNode raft = JSON.readTree(down.body()).get("components").get("raft").get("details");
            System.out.printf("%s, cut off from %s: readiness DOWN after %d ms, as %s, reachesMajority=%s%n",
                    survivor, frozen, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                    raft.get("role").asString(), raft.get("reachesMajority"));
            assertThat(raft.get("reachesMajority").asBoolean()).isFalse();
            assertThat(node.send("GET", LIVENESS, null).statusCode()).as("liveness of " + survivor).isEqualTo(200);
            JsonNode view = JSON.readTree(node.send("GET", "/api/v1/cluster", null).body());
            for (JsonNode peer : view.get("peers")) {
                if (frozen.contains(peer.get("id").asString()) && peer.get("lastContactMs").asLong() >= 0) {
                    assertThat(peer.get("lastContactMs").asLong()).as("last contact of frozen " + peer)
                            .isGreaterThan(2_000L);
                }
            }
        } finally {
            for (String id : frozen) {
                signal("CONT", cluster.pid(id));
            }
        }
    }

    private static void awaitAllReady(TestCluster cluster) {
        for (BrokerProcess node : cluster.nodes()) {
            node.await(Duration.ofSeconds(60), node.baseUrl() + " ready",
                    () -> node.send("GET", READINESS, null, Duration.ofSeconds(5)).statusCode(), s -> s == 200);
        }
    }

    /** {@code kill -SIG pid}, for a process this test started. */
    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -" + signal + " " + pid).isZero();
    }
}
