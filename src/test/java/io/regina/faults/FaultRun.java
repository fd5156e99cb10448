package io.regina.faults;

import io.regina.testing.BrokerProcess;
import io.regina.testing.TestCluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One lane: a cluster under {@link Load}, the fault the lane applies in between, then
 * {@link #finish()}: stop the producers, drain, let the nodes converge, check the history. The
 * figures go to standard output and to {@code target/faults/<lane>.txt}.
 */
final class FaultRun implements AutoCloseable {

    static final Duration LEADER_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration CONVERGE_TIMEOUT = Duration.ofSeconds(60);

    private final String lane;
    private final TestCluster cluster;
    private final History history = new History();
    private final Map<String, Object> figures = new LinkedHashMap<>();
    private Load load;

    private FaultRun(String lane, TestCluster cluster) {
        this.lane = lane;
        this.cluster = cluster;
    }

    /** Starts {@code size} nodes (extra arguments as {@link TestCluster#start} takes them) and the load. */
    static FaultRun start(Path dir, String lane, int size, String... args) throws Exception {
        return on(TestCluster.start(dir, size, args), lane);
    }

    /** Starts the load on a cluster started elsewhere (placed in network namespaces, say); closes it at the end. */
    static FaultRun on(TestCluster cluster, String lane) throws Exception {
        FaultRun run = new FaultRun(lane, cluster);
        try {
            run.load = Load.start(run.cluster.nodes(), Load.Shape.lanes(), run.history);
        } catch (Exception | Error e) {
            run.cluster.close();
            throw e;
        }
        return run;
    }

    TestCluster cluster() {
        return cluster;
    }

    History history() {
        return history;
    }

    /** Lets the load run undisturbed. */
    void steady(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    String leader() {
        return ClusterProbe.awaitLeader(cluster.running(), Set.of(), LEADER_TIMEOUT);
    }

    /** Every node but {@code id}. */
    List<BrokerProcess> others(String id) {
        BrokerProcess node = cluster.node(id);
        return cluster.nodes().stream().filter(n -> n != node).toList();
    }

    /** Stops producers and consumers without a drain: the cluster goes idle but for the leader's due timers. */
    void pauseLoad() throws InterruptedException {
        load.stopProducers();
        load.close();
    }

    /** Consumers again, on the same history and with no producers, for a drain after {@link #pauseLoad()}. */
    void resumeConsumers() throws Exception {
        load = Load.start(cluster.nodes(), load.shape().consumersOnly(), history);
    }

    /**
     * SIGKILLs a follower and tears its log tail as a power cut in the middle of its next write would
     * ({@link TornTail}): what it had acknowledged is the match index the leader holds for it.
     */
    TornTail.Tear killAndTear(BrokerProcess follower) throws Exception {
        BrokerProcess leader = cluster.node(leader());
        follower.kill();
        long acknowledged = ClusterProbe.settledMatchIndex(leader, cluster.id(follower), Duration.ofSeconds(10));
        TornTail.Tear tear = TornTail.tear(follower.dataDir(), acknowledged);
        figure("torn", tear);
        return tear;
    }

    /** Starts a stopped or killed node again and waits until it has applied what the leader had committed. */
    void restartAndCatchUp(BrokerProcess node) throws Exception {
        node.start();
        long commit = ClusterProbe.cluster(cluster.node(leader())).get("commitIndex").asLong();
        ClusterProbe.awaitApplied(node, commit, Duration.ofSeconds(60));
    }

    /** A figure of this lane besides the checker's (an election gap), reported with them. */
    void figure(String name, Object value) {
        figures.put(name, value);
    }

    /** Ends the load, checks the history and the nodes' agreement, reports; the caller asserts on the report. */
    Report finish() throws Exception {
        load.stopProducers();
        boolean drained = load.drain(DRAIN_TIMEOUT);
        List<NodeState> states = ClusterProbe.converged(cluster.nodes(), load.shape().groups(), CONVERGE_TIMEOUT);
        Report report = new Checker(load.shape().leaseTime(), load.shape().groups()).check(history, states);
        figure("drained", drained);
        report(report);
        if (!drained) {
            throw new AssertionError("the consumers did not drain the queue within " + DRAIN_TIMEOUT + ": "
                    + report.summary());
        }
        return report;
    }

    private void report(Report report) throws IOException {
        StringBuilder line = new StringBuilder(Instant.now() + " lane=" + lane + " " + report.summary());
        figures.forEach((name, value) -> line.append(' ').append(name).append('=').append(value));
        System.out.println("FAULT LANE " + line);
        Path file = Path.of("target", "faults", lane + ".txt");
        Files.createDirectories(file.getParent());
        Files.writeString(file, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Override
    public void close() throws Exception {
        try {
            if (load != null) {
                load.close();
            }
        } finally {
            cluster.close();
        }
    }
}
