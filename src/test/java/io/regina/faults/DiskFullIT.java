package io.regina.faults;

import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lane 5, on one node and on three. One node: the data directory of a loaded node is a 64 MB tmpfs, and a filler file takes its free
 * space below the broker's 16 MB reserve. Every push is then answered at once with 507
 * {@code DISK_FULL} and a message (never a hang, a reset or a bare 500), while pops, acks and reads go
 * on and the node stays up; once the filler is deleted, pushes are taken again without a restart,
 * and the history is clean. The broker refuses before the disk is really full because Ratis closes
 * a log whose write failed (the node would refuse everything until restarted).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DiskFullIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long RESERVE = 16L << 20;
    private static final String PROBE_QUEUE = "disk-probe";
    private static final Duration ANSWERED_WITHIN = Duration.ofSeconds(2);

    @Test
    void aFullDiskRefusesPushesClearlyKeepsPopsAndResumesOnceFreed(@TempDir Path dir) throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), 64)) {
            // the node's data directory is the small disk; its log file stays beside it, on the big one
            Files.createSymbolicLink(dir.resolve("n1"), disk.path());
            try (FaultRun run = FaultRun.start(dir, "disk-full", 1, "--regina.disk.reserve-bytes=" + RESERVE)) {
                BrokerProcess node = run.cluster().node("n1");
                configureProbeQueue(node);
                for (int i = 0; i < 10; i++) {
                    assertThat(probePush(node, "before-" + i).statusCode()).isEqualTo(201);
                }
                run.steady(Duration.ofSeconds(5));

                disk.fillLeaving(RESERVE - (6L << 20));
                long filledAt = run.history().now();
                run.figure("filledAtMs", filledAt);
                Map<Integer, Integer> answers = new TreeMap<>();
                for (int i = 0; i < 10; i++) {
                    Thread.sleep(500);
                    HttpResponse<String> refused = probePush(node, "full-" + i);
                    answers.merge(refused.statusCode(), 1, Integer::sum);
                    assertRefusedForDisk(refused);
                    assertPopAndAckWork(node);
                    assertThat(node.send("GET", "/api/v1/queues/" + Load.QUEUE + "/depth", null, ANSWERED_WITHIN)
                            .statusCode()).as("a read while the disk is full").isEqualTo(200);
                }
                long freedAt = run.history().now();
                long acknowledgedWhileFull = run.history().acknowledgedBetween(filledAt + 1_000, freedAt);
                assertThat(acknowledgedWhileFull).as("pushes acknowledged while the disk was full").isZero();
                assertThat(node.isAlive()).as("the node is up").isTrue();

                disk.free();
                node.await(Duration.ofSeconds(5), "a push taken again once space is freed",
                        () -> probePush(node, "freed-" + System.nanoTime()).statusCode(), s -> s == 201);
                long resumeMs = run.history().now() - freedAt;
                run.figure("refusedWhileFull", answers);
                run.figure("resumedAfterFreeMs", resumeMs);
                run.steady(Duration.ofSeconds(4));

                Report report = run.finish();

                report.assertClean();
                assertThat(report.acknowledged()).as("the load ran").isGreaterThan(100);
                assertThat(node.isAlive()).as("the node is up").isTrue();
            }
        }
    }

    /**
     * Without a reserve (0 bytes) the disk really fills under a node's Raft log, and Ratis closes the log: the
     * node can commit nothing until restarted. It says so at once (503 {@code UNAVAILABLE} saying it must be
     * restarted, not a 20 s timeout per write) and exits with 70 for its supervisor; restarted once space is
     * freed, it has every push it acknowledged, once.
     */
    @Test
    void aLogWriteThatFailsOnAFullDiskMakesTheNodeExitAndItsRestartKeepsEveryAcknowledgedPush(@TempDir Path dir)
            throws Exception {
        try (SmallDisk disk = SmallDisk.mount(dir.resolve("disk"), 64)) {
            // the node's data directory is the small disk; its log file stays beside it, on the big one
            Path data = Files.createSymbolicLink(dir.resolve("n1"), disk.path());
            try (BrokerProcess node = new BrokerProcess(data, FreePorts.next(), FreePorts.next(),
                    "--regina.disk.reserve-bytes=0")) {
                node.start();
                configureProbeQueue(node);
                List<String> acknowledged = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    String id = "before-" + i;
                    assertThat(probePush(node, id).statusCode()).isEqualTo(201);
                    acknowledged.add(id);
                }
                disk.fillLeaving(0);
                String padding = "x".repeat(100_000);
                HttpResponse<String> refused = null;
                for (int i = 0; i < 2_000 && refused == null; i++) {
                    String id = "full-" + i;
                    HttpResponse<String> answer = node.send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\""
                            + PROBE_QUEUE + "\",\"transactionId\":\"" + id + "\",\"payload\":{\"pad\":\"" + padding
                            + "\"}}]}", Duration.ofSeconds(5));
                    if (answer.statusCode() == 201) {
                        acknowledged.add(id);
                    } else {
                        refused = answer;
                    }
                }
                assertThat(refused).as("a push refused once the log cannot be written").isNotNull();
                assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
                assertThat(JSON.readTree(refused.body()).get("error").asString()).contains("must be restarted");

                assertThat(node.awaitExit(Duration.ofSeconds(60))).as("the exit code").isEqualTo(70);
                assertThat(Files.readString(node.logFile().toPath())).contains("exiting with 70");

                disk.free();
                node.start();
                List<String> kept = new ArrayList<>();
                for (int popped = -1; popped != 0; ) {
                    HttpResponse<String> pop = node.send("GET", "/api/v1/pop/queue/" + PROBE_QUEUE
                            + "?batch=100&autoAck=true", null, ANSWERED_WITHIN);
                    JsonNode messages = pop.statusCode() == 204 ? null : JSON.readTree(pop.body()).get("messages");
                    popped = messages == null ? 0 : messages.size();
                    for (int m = 0; m < popped; m++) {
                        kept.add(messages.get(m).get("transactionId").asString());
                    }
                }
                assertThat(kept).as("no push twice").doesNotHaveDuplicates();
                assertThat(kept).as("every acknowledged push, after the restart").containsAll(acknowledged);
            }
        }
    }

    /**
     * Three nodes, each on its own small disk; the leader's or a follower's fills. That node raises its
     * disk alarm through the log and every node refuses pushes with 507 (a follower's Raft log that met
     * a full disk would drop it out of the cluster until restarted), pops, acks and reads go on at every
     * node, and once the space is freed the alarm clears and every node takes pushes again.
     */
    @ParameterizedTest(name = "the {0}''s disk fills")
    @ValueSource(strings = {"leader", "follower"})
    void aFullDiskOnOneNodeOfThreeRefusesPushesOnEveryNodeAndResumesOnceFreed(String whose, @TempDir Path dir)
            throws Exception {
        try (SmallDisk d1 = SmallDisk.mount(dir.resolve("disk-n1"), 96);
             SmallDisk d2 = SmallDisk.mount(dir.resolve("disk-n2"), 96);
             SmallDisk d3 = SmallDisk.mount(dir.resolve("disk-n3"), 96)) {
            Map<String, SmallDisk> disks = Map.of("n1", d1, "n2", d2, "n3", d3);
            for (Map.Entry<String, SmallDisk> disk : disks.entrySet()) {
                Files.createSymbolicLink(dir.resolve(disk.getKey()), disk.getValue().path());
            }
            try (FaultRun run = FaultRun.start(dir, "disk-full-" + whose, 3, "--regina.disk.reserve-bytes=" + RESERVE)) {
                List<BrokerProcess> nodes = run.cluster().nodes();
                String leader = run.leader();
                BrokerProcess victim = whose.equals("leader") ? run.cluster().node(leader) : run.others(leader).get(0);
                configureProbeQueue(run.cluster().node(leader));
                for (int i = 0; i < 3 * 6; i++) {
                    assertThat(probePush(nodes.get(i % 3), "before-" + i).statusCode()).isEqualTo(201);
                }
                run.steady(Duration.ofSeconds(4));

                disks.get(run.cluster().id(victim)).fillLeaving(RESERVE - (6L << 20));
                long filledAt = run.history().now();
                for (BrokerProcess node : nodes) {
                    node.await(Duration.ofSeconds(10), "pushes refused once " + whose + "'s disk is full",
                            () -> probePush(node, "filling-" + System.nanoTime()).statusCode(), s -> s == 507);
                }
                long refusingAt = run.history().now();
                run.figure("alarmedEveryNodeMs", refusingAt - filledAt);
                for (int i = 0; i < 5; i++) {
                    Thread.sleep(500);
                    for (BrokerProcess node : nodes) {
                        assertRefusedForDisk(probePush(node, "full-" + i + "-" + node.baseUrl()));
                    }
                    BrokerProcess reader = nodes.get(i % 3);
                    assertPopAndAckWork(reader);
                    assertThat(reader.send("GET", "/api/v1/queues/" + Load.QUEUE + "/depth", null, ANSWERED_WITHIN)
                            .statusCode()).as("a read while a disk is full").isEqualTo(200);
                }
                long freedAt = run.history().now();
                long acknowledgedWhileFull = run.history().acknowledgedBetween(refusingAt, freedAt);
                assertThat(acknowledgedWhileFull).as("pushes acknowledged while the alarm was up").isZero();
                assertThat(nodes).as("every node is up").allMatch(BrokerProcess::isAlive);

                disks.get(run.cluster().id(victim)).free();
                for (BrokerProcess node : nodes) {
                    node.await(Duration.ofSeconds(10), "a push taken again once space is freed",
                            () -> probePush(node, "freed-" + System.nanoTime()).statusCode(), s -> s == 201);
                }
                run.figure("resumedEveryNodeMs", run.history().now() - freedAt);
                run.steady(Duration.ofSeconds(4));

                Report report = run.finish();

                report.assertClean();
                assertThat(report.acknowledged()).as("the load ran").isGreaterThan(100);
                assertThat(nodes).as("every node is up").allMatch(BrokerProcess::isAlive);
            }
        }
    }

    private static void configureProbeQueue(BrokerProcess node) throws Exception {
        assertThat(node.send("POST", "/api/v1/configure", "{\"queue\":\"" + PROBE_QUEUE + "\"}").statusCode())
                .isEqualTo(200);
    }

    private static HttpResponse<String> probePush(BrokerProcess node, String id) throws Exception {
        return node.send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + PROBE_QUEUE + "\",\"transactionId\":\""
                + id + "\",\"payload\":{\"probe\":true}}]}", ANSWERED_WITHIN);
    }

    private static void assertRefusedForDisk(HttpResponse<String> response) {
        assertThat(response.statusCode()).as("a push on a full disk: " + response.body()).isEqualTo(507);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("code").asString()).isEqualTo("DISK_FULL");
        assertThat(body.get("error").asString()).contains("reserve");
    }

    /** One message pushed before the fill, popped and acked now: both are Raft writes into the reserve. */
    private static void assertPopAndAckWork(BrokerProcess node) throws Exception {
        HttpResponse<String> popped = node.send("GET", "/api/v1/pop/queue/" + PROBE_QUEUE + "?batch=1", null,
                ANSWERED_WITHIN);
        assertThat(popped.statusCode()).as("a pop while the disk is full: " + popped.body()).isEqualTo(200);
        JsonNode message = JSON.readTree(popped.body()).get("messages").get(0);
        HttpResponse<String> acked = node.send("POST", "/api/v1/ack", "{\"transactionId\":\""
                + message.get("transactionId").asString() + "\",\"partitionId\":\""
                + message.get("partitionId").asString() + "\",\"leaseId\":\"" + message.get("leaseId").asString()
                + "\",\"status\":\"completed\"}", ANSWERED_WITHIN);
        assertThat(acked.statusCode()).as("an ack while the disk is full: " + acked.body()).isEqualTo(200);
    }
}
