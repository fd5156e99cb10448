package io.regina.faults;

import io.regina.testing.TestCluster;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Nodes in network namespaces of their own, so a node's Raft traffic can be cut without touching the
 * test's view of it. Node {@code i} (from 1) gets two links: one on a shared bridge, {@code 10.211.0.i},
 * for Raft between the nodes, and one straight to the test's namespace, {@code 10.212.i.2}, for HTTP.
 * {@link #cut(int)} sets its Raft link down (a partition from every peer), {@link #heal(int)} up again.
 * Needs root ({@code ip netns}, veth and bridge links): where any step is refused the lane is skipped,
 * saying which. {@link #close()} deletes the namespaces and the bridge it made, by name.
 */
final class RaftNetwork implements AutoCloseable {

    private final String prefix = "rgp" + ProcessHandle.current().pid() % 10_000;
    private final List<String> namespaces = new ArrayList<>();
    private final List<String> links = new ArrayList<>();
    private final int size;

    private RaftNetwork(int size) {
        this.size = size;
    }

    /** Creates the bridge and {@code size} namespaces wired to it, or skips the test. */
    static RaftNetwork create(int size) throws InterruptedException {
        RaftNetwork network = new RaftNetwork(size);
        String refused = null;
        try {
            network.build();
        } catch (IOException | IllegalStateException e) {
            refused = e.getMessage();
            network.close();
        }
        Assumptions.assumeTrue(refused == null, "network namespaces could not be set up (" + refused
                + "): the partition lane needs root for ip netns, veth and bridge links, skipped");
        return network;
    }

    private void build() throws IOException, InterruptedException {
        String bridge = prefix + "br";
        ip("link", "add", bridge, "type", "bridge");
        links.add(bridge);
        ip("link", "set", bridge, "up");
        for (int i = 1; i <= size; i++) {
            String ns = namespace(i);
            ip("netns", "add", ns);
            namespaces.add(ns);
            inside(i, "link", "set", "lo", "up");
            String raft = raftLink(i);
            ip("link", "add", raft, "type", "veth", "peer", "name", prefix + i + "b");
            links.add(prefix + i + "b");
            ip("link", "set", raft, "netns", ns);
            ip("link", "set", prefix + i + "b", "master", bridge);
            ip("link", "set", prefix + i + "b", "up");
            inside(i, "addr", "add", "10.211.0." + i + "/24", "dev", raft);
            inside(i, "link", "set", raft, "up");
            String http = prefix + i + "h";
            ip("link", "add", http, "type", "veth", "peer", "name", prefix + i + "o");
            links.add(prefix + i + "o");
            ip("link", "set", http, "netns", ns);
            ip("addr", "add", "10.212." + i + ".1/24", "dev", prefix + i + "o");
            ip("link", "set", prefix + i + "o", "up");
            inside(i, "addr", "add", "10.212." + i + ".2/24", "dev", http);
            inside(i, "link", "set", http, "up");
        }
    }

    /** Where each node runs: Raft on the bridge, HTTP on its own link, the JVM inside its namespace. */
    List<TestCluster.Placement> placements() {
        List<TestCluster.Placement> placements = new ArrayList<>();
        for (int i = 1; i <= size; i++) {
            placements.add(new TestCluster.Placement("10.211.0." + i, "10.212." + i + ".2",
                    List.of("ip", "netns", "exec", namespace(i))));
        }
        return placements;
    }

    /** Node {@code i} (1-based, as n1..nN) loses its Raft link: no peer reaches it, it reaches none. */
    void cut(int i) throws IOException, InterruptedException {
        inside(i, "link", "set", raftLink(i), "down");
    }

    void heal(int i) throws IOException, InterruptedException {
        inside(i, "link", "set", raftLink(i), "up");
    }

    private String namespace(int i) {
        return prefix + "n" + i;
    }

    private String raftLink(int i) {
        return prefix + i + "r";
    }

    private void inside(int i, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("netns", "exec", namespace(i), "ip"));
        command.addAll(List.of(args));
        ip(command.toArray(String[]::new));
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes()).trim();
        if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
    }

    /**
     * Deletes the namespaces (with the links inside them; a veth's other end goes with it), then whatever
     * link of ours is left in this namespace. Runs every step even if one fails; call after the nodes stopped.
     */
    @Override
    public void close() throws InterruptedException {
        List<String> failed = new ArrayList<>();
        for (String ns : namespaces) {
            quietly(failed, "netns", "del", ns);
        }
        namespaces.clear();
        for (int i = links.size() - 1; i >= 0; i--) {
            String link = links.get(i);
            try {
                if (exists(link)) {
                    ip("link", "del", link);
                }
            } catch (IOException | IllegalStateException e) {
                if (exists(link)) { // not gone with its namespace in the meantime
                    failed.add(e.getMessage());
                }
            }
        }
        links.clear();
        if (!failed.isEmpty()) {
            throw new IllegalStateException("cleaning the network up failed: " + failed);
        }
    }

    private static boolean exists(String link) throws InterruptedException {
        try {
            ip("link", "show", link);
            return true;
        } catch (IOException | IllegalStateException gone) {
            return false;
        }
    }

    private static void quietly(List<String> failed, String... args) throws InterruptedException {
        try {
            ip(args);
        } catch (IOException | IllegalStateException e) {
            failed.add(e.getMessage());
        }
    }
}
