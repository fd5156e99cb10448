package io.regina.raft;

import io.regina.queue.ClusterStatus;
import static org.assertj.core.api.Assertions.assertThat;

import io.regina.queue.Result;
import io.regina.testing.Eventually;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three RaftNodes on loopback in one JVM, each with its own temp dir and the fake state: leader
 * election, forwarding from a follower, leader failover, no acknowledged write lost, and a
 * restarted node catching up.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ThreeNodeClusterIT {

    private static final Duration AWAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    final List<RaftNode> nodes = new ArrayList<>();
    final List<BrokerStateMachine<FakeState>> machines = new ArrayList<>();
    List<RaftNodeSettings.PeerAddress> peers;

    @AfterEach
    void closeAll() {
        nodes.forEach(n -> {
            if (n != null) {
                n.close();
            }
        });
    }

    RaftNodeSettings settings(int i) {
        return new RaftNodeSettings("n" + (i + 1), peers, 0, dir.resolve("n" + (i + 1)), 30,
                GroupCommitter.Limits.defaults(), 0, Duration.ofSeconds(30), null, null);
    }

    void build(int i) {
        RaftMetrics metrics = new RaftMetrics();
        BrokerStateMachine<FakeState> machine = new BrokerStateMachine<>(FakeState.ADAPTER, metrics,
                RaftNode.maxRequestBytes(GroupCommitter.Limits.defaults()));
        RaftNode node = new RaftNode(settings(i), machine, metrics);
        if (i < nodes.size()) {
            nodes.set(i, node);
            machines.set(i, machine);
        } else {
            nodes.add(node);
            machines.add(machine);
        }
    }

    int leaderIndex() {
        for (int i = 0; i < nodes.size(); i++) {
            RaftNode n = nodes.get(i);
            if (n != null && n.isRunning() && n.isLeader()) {
                return i;
            }
        }
        return -1;
    }

    List<String> pushAll(RaftNode through, String prefix, int count) throws Exception {
        List<CompletableFuture<Result>> futures = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = prefix + "-" + i;
            ids.add(id);
            futures.add(through.submit(FakeState.push("jobs", id)));
        }
        for (int i = 0; i < count; i++) {
            Result r = futures.get(i).get(30, TimeUnit.SECONDS);
            assertThat(((Result.Pushed) r).outcomes().get(0).messageId()).isEqualTo(ids.get(i));
        }
        return ids;
    }

    void startThree() throws Exception {
        peers = List.of(new RaftNodeSettings.PeerAddress("n1", "127.0.0.1", FakeState.freePort()),
                new RaftNodeSettings.PeerAddress("n2", "127.0.0.1", FakeState.freePort()),
                new RaftNodeSettings.PeerAddress("n3", "127.0.0.1", FakeState.freePort()));
        for (int i = 0; i < 3; i++) {
            build(i);
        }
        List<CompletableFuture<Void>> starts = new ArrayList<>();
        for (RaftNode node : nodes) {
            starts.add(CompletableFuture.runAsync(() -> {
                try {
                    node.start();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        Eventually.await(AWAIT, "a leader", () -> leaderIndex() >= 0);
    }

    @Test
    void electsForwardsFailsOverAndLosesNothingAcknowledged() throws Exception {
        startThree();
        int leader = leaderIndex();
        int follower = (leader + 1) % 3;
        assertThat(nodes.get(follower).leaderId()).isEqualTo(nodes.get(leader).nodeId());

        // writes through a follower are forwarded to the leader
        Set<String> acknowledged = new HashSet<>(pushAll(nodes.get(follower), "via-follower", 60));
        assertThat(nodes.get(follower).metrics().entriesForwarded()).isGreaterThan(0);
        acknowledged.addAll(pushAll(nodes.get(leader), "via-leader", 60));
        for (int i = 0; i < 3; i++) {
            BrokerStateMachine<FakeState> m = machines.get(i);
            Eventually.await(AWAIT, "node " + i + " applies 120",
                    () -> m.<Integer>read(s -> s.size("jobs")) == 120);
        }
        ClusterStatus status = nodes.get(leader).status();
        assertThat(status.role()).isEqualTo("LEADER");
        assertThat(status.peers()).hasSize(3);
        assertThat(status.peers()).allSatisfy(p -> assertThat(p.matchIndex()).isGreaterThan(0));

        // the leader dies; the two others elect a new one and keep accepting commands
        nodes.get(leader).close();
        int oldLeader = leader;
        Eventually.await(AWAIT, "a new leader", () -> leaderIndex() >= 0 && leaderIndex() != oldLeader);
        int newLeader = leaderIndex();
        int survivor = 3 - oldLeader - newLeader;
        acknowledged.addAll(pushAll(nodes.get(survivor), "after-failover-follower", 40));
        acknowledged.addAll(pushAll(nodes.get(newLeader), "after-failover-leader", 40));

        for (int i : new int[] {newLeader, survivor}) {
            BrokerStateMachine<FakeState> m = machines.get(i);
            Eventually.await(AWAIT, "node " + i + " applies every acknowledged push",
                    () -> m.<List<String>>read(s -> s.ids("jobs")).containsAll(acknowledged));
            List<String> ids = m.read(s -> s.ids("jobs"));
            assertThat(new HashSet<>(ids)).isEqualTo(acknowledged);
        }

        // the old leader comes back on its directory and catches up (log or snapshot install)
        build(oldLeader);
        nodes.get(oldLeader).start();
        BrokerStateMachine<FakeState> back = machines.get(oldLeader);
        Eventually.await(AWAIT, "the restarted node catches up",
                () -> back.<List<String>>read(s -> s.ids("jobs")).containsAll(acknowledged));
    }

    @Test
    void aCommandAtItsSizeLimitIsForwardedWrittenReplicatedAndReadBackOnRestart() throws Exception {
        startThree();
        int leader = leaderIndex();
        int follower = (leader + 1) % 3;
        int payload = GroupCommitter.Limits.defaults().maxCommandBytes() - 1024;

        // through a follower (forwarded to the leader over gRPC), then through the leader; a small push between
        Result viaFollower = nodes.get(follower).submit(FakeState.push("big", "via-follower", payload))
                .get(60, TimeUnit.SECONDS);
        assertThat(((Result.Pushed) viaFollower).outcomes().get(0).messageId()).isEqualTo("via-follower");
        pushAll(nodes.get(leader), "small", 3);
        Result viaLeader = nodes.get(leader).submit(FakeState.push("big", "via-leader", payload))
                .get(60, TimeUnit.SECONDS);
        assertThat(((Result.Pushed) viaLeader).outcomes().get(0).messageId()).isEqualTo("via-leader");
        for (int i = 0; i < 3; i++) {
            BrokerStateMachine<FakeState> m = machines.get(i);
            Eventually.await(AWAIT, "node " + i + " applies both large pushes",
                    () -> m.<List<String>>read(s -> s.ids("big")).equals(List.of("via-follower", "via-leader")));
        }

        // a follower restarted on its directory reads the large entries back from its log
        int other = 3 - leader - follower;
        nodes.get(other).close();
        build(other);
        nodes.get(other).start();
        BrokerStateMachine<FakeState> back = machines.get(other);
        Eventually.await(AWAIT, "the restarted node has both large pushes",
                () -> back.<List<String>>read(s -> s.ids("big")).equals(List.of("via-follower", "via-leader")));
    }
}
