package io.regina.faults;

import io.regina.testing.BrokerProcess;
import io.regina.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lane 7: the leader of a loaded three-node cluster, each node in its own network namespace, loses
 * its Raft link (a partition from both followers) for 15 s, longer until the majority has acknowledged five
 * pushes (at most 45 s after its election), while the test still reaches it over HTTP.
 * The minority leader acknowledges no write while it is cut off; the majority elects a new leader
 * and goes on acknowledging; once the link is up again the old leader follows, and the history is
 * clean with every node on one applied index and one queue depth.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class PartitionIT {

    private static final String PROBE_QUEUE = "partition-probe";
    private static final Duration CUT_FOR = Duration.ofSeconds(15);
    /** How long after the election the majority has to acknowledge its first five pushes. */
    private static final Duration MAJORITY_DEADLINE = Duration.ofSeconds(45);

    /** One push sent straight to the cut-off leader; {@code status} -1 when it was not answered. */
    private record Probe(long sentAt, long answeredAt, int status) {
    }

    @Test
    void aLeaderCutOffFromBothFollowersStopsAcknowledgingAndTheMajorityGoesOn(@TempDir Path dir) throws Exception {
        try (RaftNetwork network = RaftNetwork.create(3);
             FaultRun run = FaultRun.on(TestCluster.start(dir, network.placements()), "partition-leader")) {
            run.steady(Duration.ofSeconds(6));
            String leader = run.leader();
            BrokerProcess isolated = run.cluster().node(leader);
            assertThat(isolated.send("POST", "/api/v1/configure", "{\"queue\":\"" + PROBE_QUEUE + "\"}")
                    .statusCode()).isEqualTo(200);

            List<Probe> probes = new CopyOnWriteArrayList<>();
            AtomicBoolean probing = new AtomicBoolean(true);
            Thread prober = new Thread(() -> probe(run.history(), isolated, probes, probing), "minority-prober");
            prober.setDaemon(true);
            long cutAt = run.history().now();
            network.cut(Integer.parseInt(leader.substring(1)));
            prober.start();
            long healAt;
            try {
                String successor = ClusterProbe.awaitLeader(run.others(leader), Set.of(leader), FaultRun.LEADER_TIMEOUT);
                long electedAt = run.history().now();
                run.figure("electionGapMs", electedAt - cutAt);
                run.figure("newLeader", successor);
                Thread.sleep(Math.max(0, CUT_FOR.toMillis() - (electedAt - cutAt)));
                // every third request of the load goes to the cut-off node and waits out its 4 s timeout:
                // a few pushes a second, not the usual 75; on a loaded machine fewer (a full lane once saw 3
                // in the cut's last 13 s), so the cut lasts until five or the deadline
                long deadline = electedAt + MAJORITY_DEADLINE.toMillis();
                long acknowledgedByMajority = acknowledgedSince(run, electedAt);
                while (acknowledgedByMajority < 5 && run.history().now() < deadline) {
                    Thread.sleep(250);
                    acknowledgedByMajority = acknowledgedSince(run, electedAt);
                }
                run.figure("acknowledgedByMajority", acknowledgedByMajority);
                run.figure("cutForMs", run.history().now() - cutAt);
                assertThat(acknowledgedByMajority).as("pushes the majority acknowledged under its new leader")
                        .isGreaterThanOrEqualTo(5);
            } finally {
                healAt = run.history().now();
                network.heal(Integer.parseInt(leader.substring(1)));
                probing.set(false);
                prober.join();
            }
            ClusterProbe.awaitFollower(isolated, FaultRun.LEADER_TIMEOUT);
            run.steady(Duration.ofSeconds(5));

            Map<String, Integer> minorityAnswered = new TreeMap<>();
            for (Probe probe : probes) {
                if (probe.answeredAt() < healAt) {
                    minorityAnswered.merge(probe.status() < 0 ? "no answer" : Integer.toString(probe.status()), 1,
                            Integer::sum);
                }
            }
            run.figure("minorityAnswered", minorityAnswered);

            Report report = run.finish();

            report.assertClean();
            assertThat(report.acknowledged()).as("the load ran").isGreaterThan(100);
            assertThat(probes).as("pushes to the cut-off leader").isNotEmpty();
            assertThat(probes).filteredOn(p -> p.sentAt() >= cutAt && p.answeredAt() < healAt)
                    .as("pushes the cut-off leader acknowledged while it had no majority").noneMatch(
                            p -> p.status() == 201);
        }
    }

    private static long acknowledgedSince(FaultRun run, long electedAt) {
        return run.history().pushes().stream()
                .filter(p -> p.outcome() == History.Outcome.OK && p.invokedAt() > electedAt).count();
    }

    /** Pushes to the cut-off node every 200 ms, each given 2 s, until told to stop. */
    private static void probe(History clock, BrokerProcess node, List<Probe> probes, AtomicBoolean probing) {
        for (int i = 0; probing.get(); i++) {
            long sent = clock.now();
            int status;
            try {
                status = node.send("POST", "/api/v1/push", "{\"items\":[{\"queue\":\"" + PROBE_QUEUE
                        + "\",\"transactionId\":\"minority-" + i + "\",\"payload\":{}}]}", Duration.ofSeconds(2))
                        .statusCode();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception unanswered) {
                status = -1;
            }
            probes.add(new Probe(sent, clock.now(), status));
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
