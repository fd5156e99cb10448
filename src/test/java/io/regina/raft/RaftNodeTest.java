package io.regina.raft;

import io.regina.queue.ClusterStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.regina.queue.Command;
import io.regina.queue.QueueOptions;
import io.regina.queue.Result;
import io.regina.testing.Eventually;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.ClientInvocationId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.RetryCache;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real single-node Ratis group in a temp dir, with the fake state (see {@link FakeState}). */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RaftNodeTest {

    private static final Duration AWAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    RaftNodeSettings settings(int port) {
        return RaftNodeSettings.singleNode(dir, port)
                .withSnapshotThreshold(20)
                .withTickIntervalMs(100)
                .withStartTimeout(Duration.ofSeconds(30));
    }

    static BrokerStateMachine<FakeState> fakeMachine(RaftMetrics metrics) {
        return new BrokerStateMachine<>(FakeState.ADAPTER, metrics,
                RaftNode.maxRequestBytes(GroupCommitter.Limits.defaults()));
    }

    @Test
    void theLeadersOwnEntriesHandTheirResultsOverAndLeaveTheRetryCacheOnceAnswered() throws Exception {
        int port = FakeState.freePort();
        RaftMetrics metrics = new RaftMetrics();
        BrokerStateMachine<FakeState> machine = fakeMachine(metrics);
        // no ticks: a tick in flight beside the last push would stay in the cache with it
        try (RaftNode node = new RaftNode(settings(port).withTickIntervalMs(0), machine, metrics)) {
            node.start();
            for (int i = 0; i < 5; i++) {
                Result pushed = node.submit(FakeState.push("orders", "m-" + i)).get(30, TimeUnit.SECONDS);
                assertThat(((Result.Pushed) pushed).outcomes().get(0).messageId()).isEqualTo("m-" + i);
            }
            RetryCache cache = node.division().getRetryCache();
            List<Long> cached = new ArrayList<>();
            for (long callId = 1; callId <= 50; callId++) {
                RetryCache.Entry entry = cache.getIfPresent(
                        ClientInvocationId.valueOf(machine.localAnswers().clientId(), callId));
                if (entry != null) {
                    cached.add(callId);
                    assertThat(entry.getReplyFuture().get(30, TimeUnit.SECONDS).getMessage().getContent().isEmpty())
                            .as("the cached reply of call %d holds no results", callId).isTrue();
                }
            }
            // each entry names the calls answered before it, and Ratis lets them go: only the last one is left
            assertThat(cached).as("this node's own calls in the retry cache after five pushes one by one")
                    .containsExactly(5L);

            // another client (a follower forwarding its entries) still gets the results in Ratis' reply
            RaftGroup group = RaftGroup.valueOf(RaftNode.GROUP_ID,
                    RaftPeer.newBuilder().setId("n1").setAddress("127.0.0.1:" + port).build());
            try (RaftClient client = RaftClient.newBuilder().setProperties(new RaftProperties()).setRaftGroup(group)
                    .setRetryPolicy(RetryPolicies.noRetry()).build()) {
                byte[] request = EntryCodec.encodeRequest(List.of(EntryCodec.encodeCommand(
                        FakeState.push("orders", "forwarded"))));
                RaftClientReply reply = client.io().send(Message.valueOf(
                        org.apache.ratis.thirdparty.com.google.protobuf.ByteString.copyFrom(request)));
                List<Result> results = EntryCodec.decodeResults(reply.getMessage().getContent().asReadOnlyByteBuffer());
                assertThat(((Result.Pushed) results.get(0)).outcomes().get(0).messageId()).isEqualTo("forwarded");
            }
        }
    }

    @Test
    void concurrentCommandsAreGroupCommittedAnsweredInOrderAndSurviveARestart() throws Exception {
        int port = FakeState.freePort();
        RaftMetrics metrics = new RaftMetrics();
        BrokerStateMachine<FakeState> machine = fakeMachine(metrics);
        List<String> deliverable = new CopyOnWriteList();
        machine.onDeliverable(deliverable::add);
        List<String> ids = new ArrayList<>();
        try (RaftNode node = new RaftNode(settings(port), machine, metrics)) {
            node.start();
            assertThat(node.isLeader()).isTrue();
            assertThat(node.status().role()).isEqualTo("LEADER");
            assertThat(Files.isDirectory(node.storageDir().resolve(RaftNode.GROUP_ID.getUuid().toString()))).isTrue();

            Result configured = node.submit(new Command.Configure("orders", null, null, QueueOptions.defaults()))
                    .get(30, TimeUnit.SECONDS);
            assertThat(configured).isInstanceOf(Result.Configured.class);

            // 200 commands from 8 threads at once
            ExecutorService pool = Executors.newFixedThreadPool(8);
            CountDownLatch go = new CountDownLatch(1);
            ConcurrentHashMap<String, CompletableFuture<Result>> futures = new ConcurrentHashMap<>();
            List<CompletableFuture<?>> submitted = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                submitted.add(CompletableFuture.runAsync(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    for (int i = 0; i < 25; i++) {
                        String id = "m-" + thread + "-" + i;
                        futures.put(id, node.submit(FakeState.push("orders", id)));
                    }
                }, pool));
            }
            go.countDown();
            CompletableFuture.allOf(submitted.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            pool.shutdown();
            assertThat(futures).hasSize(200);
            for (var e : futures.entrySet()) {
                Result r = e.getValue().get(30, TimeUnit.SECONDS);
                assertThat(r).isInstanceOf(Result.Pushed.class);
                assertThat(((Result.Pushed) r).outcomes().get(0).messageId()).as("answer of %s", e.getKey())
                        .isEqualTo(e.getKey());
                ids.add(e.getKey());
            }
            assertThat(metrics.commandsSubmitted()).isGreaterThanOrEqualTo(201);
            assertThat(metrics.maxCommandsPerEntry()).as("commands per entry under concurrency").isGreaterThan(1);
            assertThat(metrics.entriesSubmitted()).isLessThan(metrics.commandsSubmitted());
            List<String> stored = machine.read(s -> s.ids("orders"));
            assertThat(stored).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(deliverable).contains("orders");
            assertThat(machine.lastNow()).isGreaterThan(1_600_000_000_000L);

            Eventually.await(AWAIT, "a tick", () -> machine.read(s -> s.ticks) > 0);
            Eventually.await(AWAIT, "a snapshot", () -> node.status().lastSnapshotIndex() > 0);
            ClusterStatus status = node.status();
            assertThat(status.appliedIndex()).isGreaterThan(0);
            assertThat(status.commitIndex()).isGreaterThanOrEqualTo(status.appliedIndex());
            assertThat(status.peers()).singleElement().satisfies(p -> {
                assertThat(p.id()).isEqualTo("n1");
                assertThat(p.role()).isEqualTo("LEADER");
            });
        }

        // restart on the same directory: snapshot + log tail bring the state back
        RaftMetrics metrics2 = new RaftMetrics();
        BrokerStateMachine<FakeState> machine2 = fakeMachine(metrics2);
        try (RaftNode node = new RaftNode(settings(port), machine2, metrics2)) {
            node.start();
            List<String> recovered = machine2.read(s -> s.ids("orders"));
            assertThat(recovered).containsExactlyInAnyOrderElementsOf(ids);
            assertThat(machine2.latestSnapshotIndex()).isGreaterThan(0);
            Result r = node.submit(FakeState.push("orders", "after-restart")).get(30, TimeUnit.SECONDS);
            assertThat(((Result.Pushed) r).outcomes().get(0).messageId()).isEqualTo("after-restart");
            int size = machine2.read(s -> s.size("orders"));
            assertThat(size).isEqualTo(201);
        }
        // retention keeps two snapshot files
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> snapshots = files.filter(p -> p.getFileName().toString().matches("snapshot\\.\\d+_\\d+"))
                    .toList();
            assertThat(snapshots).hasSizeBetween(1, 2);
        }
    }

    @Test
    void theLogWorkersAppendsAndFsyncsAreCounted() throws Exception {
        RaftMetrics metrics = new RaftMetrics();
        try (RaftNode node = new RaftNode(settings(FakeState.freePort()), fakeMachine(metrics), metrics)) {
            node.start();
            node.submit(new Command.Configure("orders", null, null, QueueOptions.defaults())).get(30, TimeUnit.SECONDS);
            long appends = node.logAppendCount();
            long fsyncs = node.logFlushCount();
            assertThat(appends).isPositive();
            assertThat(fsyncs).isPositive();

            // one at a time: each command its own entry, fsynced before it is answered
            for (int i = 0; i < 5; i++) {
                node.submit(FakeState.push("orders", "m-" + i)).get(30, TimeUnit.SECONDS);
            }
            assertThat(node.logAppendCount() - appends).isGreaterThanOrEqualTo(5);
            assertThat(node.logFlushCount() - fsyncs).isGreaterThanOrEqualTo(5);
        }
    }

    @Test
    void aTimerSetWhileTheLeaderSleepsFiresWhenDueNotAtItsNextRegularLook() throws Exception {
        int port = FakeState.freePort();
        RaftMetrics metrics = new RaftMetrics();
        BrokerStateMachine<FakeState> machine = fakeMachine(metrics);
        // regular ticks a minute apart: between them only a due timer makes the leader tick
        try (RaftNode node = new RaftNode(settings(port).withTickIntervalMs(60_000), machine, metrics)) {
            node.start();
            Eventually.await(AWAIT, "the first tick", () -> machine.read(s -> s.ticks) > 0);
            for (int i = 1; i <= 3; i++) {
                Thread.sleep(300); // the idle leader sleeps, its next look planned up to a second ahead
                long due = System.currentTimeMillis() + 100;
                node.submit(FakeState.push(FakeState.TIMERS, Long.toString(due))).get(30, TimeUnit.SECONDS);
                int n = i;
                Eventually.await(AWAIT, "timer " + n + " fired", () -> machine.read(s -> s.fired.size()) == n);
                long firedAt = machine.read(s -> s.fired.get(n - 1)[1]);
                assertThat(firedAt - due).as("how late timer %d fired, ms", n).isBetween(0L, 400L);
            }
            long ticks = machine.read(s -> s.ticks);
            assertThat(ticks).as("the first tick and one a timer").isEqualTo(4);
        }
    }

    @Test
    void aStateThatNeedsNoRegularTicksIsNotTickedWhileIdleButItsTimersStillFire() throws Exception {
        int port = FakeState.freePort();
        RaftMetrics metrics = new RaftMetrics();
        BrokerStateMachine<FakeState> machine = fakeMachine(metrics);
        try (RaftNode node = new RaftNode(settings(port).withTickIntervalMs(100), machine, metrics)) {
            node.start();
            Eventually.await(AWAIT, "regular ticks", () -> machine.read(s -> s.ticks) > 2);
            node.submit(FakeState.push(FakeState.QUIET, "q")).get(30, TimeUnit.SECONDS);
            Thread.sleep(300); // a tick already planned may still come
            long ticks = machine.read(s -> s.ticks);
            Thread.sleep(1_000);
            long idleTicks = machine.read(s -> s.ticks);
            assertThat(idleTicks).as("ticks after an idle second at a 100 ms interval").isEqualTo(ticks);

            long due = System.currentTimeMillis() + 100;
            node.submit(FakeState.push(FakeState.TIMERS, Long.toString(due))).get(30, TimeUnit.SECONDS);
            Eventually.await(AWAIT, "the timer fired", () -> machine.read(s -> s.fired.size()) == 1);
            long timerTicks = machine.read(s -> s.ticks);
            assertThat(timerTicks).as("one tick, for the timer").isEqualTo(ticks + 1);
        }
    }

    @Test
    void aRequestThatDoesNotDecodeIsRejectedBeforeTheLog() throws Exception {
        int port = FakeState.freePort();
        RaftMetrics metrics = new RaftMetrics();
        BrokerStateMachine<FakeState> machine = fakeMachine(metrics);
        try (RaftNode node = new RaftNode(settings(port).withTickIntervalMs(0), machine, metrics)) {
            node.start();
            long before = node.status().commitIndex();
            RaftProperties properties = new RaftProperties();
            RaftGroup group = RaftGroup.valueOf(RaftNode.GROUP_ID,
                    RaftPeer.newBuilder().setId("n1").setAddress("127.0.0.1:" + port).build());
            try (RaftClient client = RaftClient.newBuilder().setProperties(properties).setRaftGroup(group)
                    .setRetryPolicy(RetryPolicies.noRetry()).build()) {
                byte[] bad = {1, 0, 0, 0, 1, 99}; // version 1, one command, op code 99
                CompletableFuture<RaftClientReply> reply = client.async().send(Message.valueOf(
                        org.apache.ratis.thirdparty.com.google.protobuf.ByteString.copyFrom(bad)));
                assertThatThrownBy(() -> {
                    RaftClientReply r = reply.get(30, TimeUnit.SECONDS);
                    if (!r.isSuccess()) {
                        throw r.getException();
                    }
                }).hasStackTraceContaining("unknown command op code 99");
            }
            long applied = machine.read(s -> s.applied);
            assertThat(applied).isZero();
            assertThat(node.status().commitIndex()).isEqualTo(before);
        }
    }

    @Test
    void aThrowingDomainBugIsAnsweredAsARejectionAndTheNodeLives() throws Exception {
        RaftMetrics metrics = new RaftMetrics();
        BrokerStateMachine<FakeState> machine = fakeMachine(metrics);
        try (RaftNode node = new RaftNode(settings(FakeState.freePort()).withTickIntervalMs(0), machine, metrics)) {
            node.start();
            Result r = node.submit(new Command.ClearQueue("boom")).get(30, TimeUnit.SECONDS);
            assertThat(r).isInstanceOfSatisfying(Result.Rejected.class,
                    rejected -> assertThat(rejected.message()).contains("a domain bug"));
            assertThat(metrics.applyErrors()).isEqualTo(1);
            assertThat(node.submit(FakeState.push("q", "m")).get(30, TimeUnit.SECONDS))
                    .isInstanceOf(Result.Pushed.class);
        }
    }

    @Test
    void aNodeWhoseDivisionStopsByItselfRefusesEveryWriteAtOnceSaysWhyAndStillCloses() throws Exception {
        RaftMetrics metrics = new RaftMetrics();
        BrokerStateMachine<FakeState> machine = fakeMachine(metrics);
        RaftNode node = new RaftNode(settings(FakeState.freePort()).withTickIntervalMs(0), machine, metrics);
        List<String> heard = new CopyOnWriteList();
        node.onStoppedByItself(heard::add);
        node.start();
        assertThat(node.submit(FakeState.push("q", "m1")).get(30, TimeUnit.SECONDS)).isInstanceOf(Result.Pushed.class);
        assertThat(node.stoppedByItself()).isNull();

        CompletableFuture<Result> fatal = node.submit(new Command.ClearQueue("error"));
        // answered once the stop is noticed, not when the 20 s commit timeout runs out
        assertThatThrownBy(() -> fatal.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining("this raft node stopped").hasMessageContaining("must be restarted");
        assertThat(node.stoppedByItself()).contains("division is");
        assertThat(heard).containsExactly(node.stoppedByItself());
        assertThatThrownBy(() -> node.submit(FakeState.push("q", "m2")).get(1, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasMessageContaining("must be restarted");

        CompletableFuture<Void> closing = CompletableFuture.runAsync(node::close);
        closing.get(30, TimeUnit.SECONDS);
        assertThat(heard).as("heard once").hasSize(1);
    }

    @Test
    void aClosedNodeRefusesCommands() throws Exception {
        RaftMetrics metrics = new RaftMetrics();
        RaftNode node = new RaftNode(settings(FakeState.freePort()), fakeMachine(metrics), metrics);
        node.start();
        assertThat(node.logOpen()).isTrue();
        node.close();
        assertThat(node.logOpen()).isFalse();
        assertThatThrownBy(() -> node.submit(new Command.Tick()).get(5, TimeUnit.SECONDS))
                .hasMessageContaining("shutting down");
        assertThat(node.status().role()).isEqualTo("STOPPED");
    }

    /** A thread-safe list for listener callbacks. */
    static final class CopyOnWriteList extends java.util.concurrent.CopyOnWriteArrayList<String> { }
}
