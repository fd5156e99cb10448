package io.regina.raft;

import io.regina.testing.BrokerProcess;
import io.regina.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three real broker processes: SIGSTOP both followers (by the process ids this test started), and the
 * leader, cut off from its majority, reports readiness DOWN while liveness stays UP and
 * {@code /api/v1/cluster} shows the followers' last contact growing; SIGCONT, and it is ready again.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClusterReadinessIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String READINESS = "/actuator/health/readiness";
    private static final String LIVENESS = "/actuator/health/liveness";

    @Test
    void aLeaderWithoutAMajorityIsNotReadyButAlive(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            for (BrokerProcess node : cluster.nodes()) {
                awaitStatus(node, READINESS, 200, Duration.ofSeconds(60));
            }
            String leaderId = cluster.awaitLeader(Duration.ofSeconds(30));
            BrokerProcess leader = cluster.node(leaderId);
            List<String> followers = Stream.of("n1", "n2", "n3").filter(id -> !id.equals(leaderId)).toList();
            JsonNode before = JSON.readTree(leader.send("GET", "/api/v1/cluster", null).body());
            for (JsonNode peer : before.get("peers")) {
                assertThat(peer.get("lag").asLong()).as("lag of " + peer).isBetween(0L, 1_000L);
                assertThat(peer.get("lastContactMs").asLong()).as("last contact of " + peer).isBetween(0L, 2_000L);
            }
            try {
                for (String follower : followers) {
                    signal("STOP", cluster.pid(follower));
                }
                awaitStatus(leader, READINESS, 503, Duration.ofSeconds(30));
                assertThat(leader.send("GET", LIVENESS, null).statusCode()).isEqualTo(200);
                JsonNode cut = JSON.readTree(leader.send("GET", "/api/v1/cluster", null).body());
                for (JsonNode peer : cut.get("peers")) {
                    if (followers.contains(peer.get("id").asString()) && cut.get("role").asString().equals("LEADER")) {
                        assertThat(peer.get("lastContactMs").asLong()).as("last contact of " + peer)
                                .isGreaterThan(2_000L);
                    }
                }
            } finally {
                for (String follower : followers) {
                    signal("CONT", cluster.pid(follower));
                }
            }
            for (BrokerProcess node : cluster.nodes()) {
                awaitStatus(node, READINESS, 200, Duration.ofSeconds(60));
            }
        }
    }

    private static void awaitStatus(BrokerProcess node, String path, int status, Duration timeout) {
        node.await(timeout, node.baseUrl() + path + " answering " + status,
                () -> node.send("GET", path, null, Duration.ofSeconds(5)).statusCode(), s -> s == status);
    }

    /** {@code kill -SIG pid}, for a process this test started. */
    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -" + signal + " " + pid).isZero();
    }
}
