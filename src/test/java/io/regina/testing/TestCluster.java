package io.regina.testing;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Real broker processes on free loopback ports, one data directory each, as nats-server's cluster
 * builders and Ratis' {@code MiniRaftCluster}: start N nodes ({@code n1}..{@code nN}; one node is the
 * embedded single-node group), wait for a leader, SIGKILL or SIGTERM a node by its process id and
 * restart it on the same data and ports. Closing kills every node still running.
 */
public final class TestCluster implements AutoCloseable {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Several JVMs start at once on two cores. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(240);

    private final Map<String, BrokerProcess> nodes;

    private TestCluster(Map<String, BrokerProcess> nodes) {
        this.nodes = nodes;
    }

    /**
     * Where one node runs: the address its peers reach its Raft port on, the address the test reaches
     * its HTTP port on, and the command its JVM is launched under (see {@link BrokerProcess}).
     */
    public record Placement(String raftHost, String httpHost, List<String> launchPrefix) {
        public Placement {
            launchPrefix = List.copyOf(launchPrefix);
        }

        public static Placement loopback() {
            return new Placement("127.0.0.1", "127.0.0.1", List.of());
        }
    }

    /**
     * Launches {@code size} nodes and waits until each serves. Extra arguments go to every node as
     * {@link BrokerProcess} takes them ({@code --} to the broker, {@code -} to its JVM).
     */
    public static TestCluster start(Path dir, int size, String... extraArgs) throws IOException,
            InterruptedException {
        return start(dir, Collections.nCopies(size, Placement.loopback()), extraArgs);
    }

    /** {@link #start(Path, int, String...)}, one node per placement (in their own network namespaces, say). */
    public static TestCluster start(Path dir, List<Placement> placements, String... extraArgs) throws IOException,
            InterruptedException {
        int size = placements.size();
        List<String> ids = new ArrayList<>();
        List<Integer> raftPorts = new ArrayList<>();
        StringBuilder peers = new StringBuilder();
        for (int i = 1; i <= size; i++) {
            ids.add("n" + i);
            raftPorts.add(FreePorts.next());
            peers.append(i == 1 ? "" : ",").append("n").append(i).append('=')
                    .append(placements.get(i - 1).raftHost()).append(':').append(raftPorts.get(i - 1));
        }
        Map<String, BrokerProcess> nodes = new LinkedHashMap<>();
        TestCluster cluster = new TestCluster(nodes);
        try {
            for (int i = 0; i < size; i++) {
                List<String> args = new ArrayList<>(List.of(extraArgs));
                if (size > 1) {
                    args.add("--regina.node-id=" + ids.get(i));
                    args.add("--regina.peers=" + peers);
                }
                String id = ids.get(i);
                Placement placement = placements.get(i);
                nodes.put(id, new BrokerProcess(dir.resolve(id), placement.httpHost(), placement.launchPrefix(),
                        FreePorts.next(), raftPorts.get(i), args.toArray(String[]::new)).launch());
            }
            for (BrokerProcess node : nodes.values()) {
                node.awaitHealthy(START_TIMEOUT);
            }
            return cluster;
        } catch (IOException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    public BrokerProcess node(String id) {
        BrokerProcess node = nodes.get(id);
        if (node == null) {
            throw new IllegalArgumentException("no node " + id + " in " + nodes.keySet());
        }
        return node;
    }

    /** The id {@code node} has in this cluster. */
    public String id(BrokerProcess node) {
        return nodes.entrySet().stream().filter(e -> e.getValue() == node).map(Map.Entry::getKey).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(node.baseUrl() + " is not in " + nodes.keySet()));
    }

    /** Every node, running or not, in id order. */
    public List<BrokerProcess> nodes() {
        return List.copyOf(nodes.values());
    }

    /** The nodes whose process is alive, in id order. */
    public List<BrokerProcess> running() {
        return nodes.values().stream().filter(BrokerProcess::isAlive).toList();
    }

    public long pid(String id) {
        return node(id).pid();
    }

    /**
     * The leader the first running node names on {@code /api/v1/cluster}, waiting until it names one
     * that is not among {@code notThese} (a leader that was just killed).
     */
    public String awaitLeader(Duration timeout, String... notThese) {
        BrokerProcess asked = running().get(0);
        List<String> excluded = List.of(notThese);
        JsonNode leader = asked.await(timeout, "a leader" + (excluded.isEmpty() ? "" : " other than " + excluded),
                () -> JSON.readTree(asked.send("GET", "/api/v1/cluster", null).body()).get("leaderId"),
                id -> id != null && !id.isNull() && !excluded.contains(id.asString()));
        return leader.asString();
    }

    /** SIGKILL (kill -9) to the node's process id. */
    public void kill(String id) throws InterruptedException {
        node(id).kill();
    }

    /** SIGTERM to the node's process id, waiting for its graceful stop. */
    public void stop(String id) throws InterruptedException {
        node(id).stop();
    }

    /** Starts a stopped or killed node again on its data directory and ports, and waits until it serves. */
    public BrokerProcess restart(String id) throws IOException {
        BrokerProcess node = node(id);
        if (node.isAlive()) {
            throw new IllegalStateException("node " + id + " is still running (pid " + node.pid() + ")");
        }
        return node.start();
    }

    @Override
    public void close() throws InterruptedException {
        for (BrokerProcess node : nodes.values()) {
            node.kill();
        }
    }
}
