package io.regina.raft;

import io.regina.queue.ClusterStatus;
import io.regina.queue.Command;
import io.regina.queue.MembershipException;
import io.regina.queue.Result;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Regina node, assembled from its parts: the {@link LocalServer} (the Ratis server with the
 * {@link BrokerStateMachine} and its storage), the {@link GroupCommitter} that builds entries, the
 * {@link LeaderRouter} that sends them to the leader, the {@link LeaderTicker} and the
 * {@link NodeStatus}. This class owns their order of start and stop.
 *
 * <p>Durability: an entry is acknowledged only after it is fsynced on a majority (the leader's
 * own flush index counts towards the commit index; unsafe-flush is off) and applied here.
 */
public final class RaftNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RaftNode.class);

    /** The one Raft group of a Regina cluster (multi-raft sharding would add more). */
    public static final RaftGroupId GROUP_ID =
            RaftGroupId.valueOf(UUID.nameUUIDFromBytes("regina-group-0".getBytes(StandardCharsets.UTF_8)));

    /** Room for the request framing on top of the largest entry the committer builds. */
    private static final int REQUEST_SLACK_BYTES = 64 * 1024;

    private final RaftNodeSettings settings;
    private final BrokerStateMachine<?> stateMachine;
    private final RaftMetrics metrics;
    private final ExecutorService forwardExecutor;
    private final LocalServer local;
    private final LeaderRouter router;
    private final GroupCommitter committer;
    private final DivisionWatch watch;
    private final LeaderTicker ticker;
    private final NodeStatus status;
    private final Membership membership;

    public RaftNode(RaftNodeSettings settings, BrokerStateMachine<?> stateMachine, RaftMetrics metrics) {
        this.settings = Objects.requireNonNull(settings);
        this.stateMachine = Objects.requireNonNull(stateMachine);
        this.metrics = Objects.requireNonNull(metrics);
        List<RaftPeer> peers = new ArrayList<>();
        for (RaftNodeSettings.PeerAddress p : settings.initialPeers()) {
            peers.add(RaftPeer.newBuilder().setId(p.id()).setAddress(p.address()).build());
        }
        RaftGroup group = RaftGroup.valueOf(GROUP_ID, peers);
        this.forwardExecutor = Executors.newSingleThreadExecutor(daemonThreads("regina-raft-forward-" + settings.nodeId()));
        this.local = new LocalServer(settings, group, stateMachine);
        this.router = new LeaderRouter(settings, group, local, stateMachine.localAnswers(), forwardExecutor, metrics);
        this.committer = new GroupCommitter(router::send, metrics, settings.limits());
        this.watch = new DivisionWatch(settings.nodeId(), local, committer);
        this.ticker = new LeaderTicker(settings, local, committer, stateMachine, watch,
                Executors.newSingleThreadScheduledExecutor(daemonThreads("regina-raft-tick-" + settings.nodeId())));
        stateMachine.onTimerDue(ticker::timerDue);
        this.status = new NodeStatus(settings, local, stateMachine);
        this.membership = new Membership(settings, local);
    }

    /** The largest client request the state machine accepts into the log. */
    public static long maxRequestBytes(GroupCommitter.Limits limits) {
        return (long) Math.max(limits.maxEntryBytes(), limits.maxCommandBytes()) + REQUEST_SLACK_BYTES;
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    // ------------------------------------------------------------------ start and stop

    public Path storageDir() {
        return local.storageDir();
    }

    /**
     * Starts the server (RECOVER when the storage already holds the group, FORMAT otherwise) and
     * blocks until a leader is known (single node: until it is leader-ready), at most
     * {@link RaftNodeSettings#startTimeout()}; then the leader's tick.
     */
    public synchronized void start() throws IOException {
        if (local.isRunning()) {
            return;
        }
        local.start();
        ticker.start();
        LOG.info("raft node {} started: {}", settings.nodeId(), status());
    }

    public boolean isRunning() {
        return local.isRunning();
    }

    /**
     * False once Ratis closed this node's log: it does so when a write to the log fails (a full disk, an
     * I/O error), and the node then refuses every write until it is restarted.
     */
    public boolean logOpen() {
        RaftServer.Division division = local.division();
        return division != null && division.getRaftLog().isOpened();
    }

    /**
     * Why this node's division stopped without {@link #close()} (its state machine threw an {@code Error}, a
     * log write failed), or null while it has not: such a node refuses every write until restarted.
     */
    public String stoppedByItself() {
        return watch.stopped();
    }

    /** Calls {@code listener} once with the reason, within a second of the division stopping by itself. */
    public void onStoppedByItself(Consumer<String> listener) {
        watch.onStopped(listener);
    }

    /**
     * Stops the tick, lets entries in flight finish, closes the server (which applies what is
     * committed and takes a snapshot, {@code trigger-when-stop}) and fails anything left.
     */
    @Override
    public void close() {
        synchronized (this) { // waits for a start in progress, so nothing is scheduled after the tick stops
            if (!local.beginClose()) {
                return;
            }
        }
        ticker.close();
        committer.drain(5_000);
        router.close();
        local.closeServer();
        committer.close();
        forwardExecutor.shutdown();
        try {
            forwardExecutor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("raft node {} stopped", settings.nodeId());
    }

    // ------------------------------------------------------------------ write path

    public GroupCommitter committer() {
        return committer;
    }

    /** Shortcut for {@code committer().submit(command)}. */
    public CompletableFuture<Result> submit(Command command) {
        return committer.submit(command);
    }

    // ------------------------------------------------------------------ status

    public String nodeId() {
        return settings.nodeId();
    }

    public RaftNodeSettings settings() {
        return settings;
    }

    /** This node's Ratis division, or null before start: for tests that look inside Ratis. */
    RaftServer.Division division() {
        return local.division();
    }

    public BrokerStateMachine<?> stateMachine() {
        return stateMachine;
    }

    public RaftMetrics metrics() {
        return metrics;
    }

    public boolean isLeader() {
        return status.isLeader();
    }

    /** The leader this node knows of, or null. */
    public String leaderId() {
        return status.leaderId();
    }

    /** Raft log fsyncs of this node since it started (Ratis' log-worker {@code flushCount}); -1 if unknown. */
    public long logFlushCount() {
        return status.logWorkerCount("flushCount");
    }

    /** Raft log entries appended by this node since it started (Ratis' {@code appendEntryCount}); -1 if unknown. */
    public long logAppendCount() {
        return status.logWorkerCount("appendEntryCount");
    }

    /** The highest log index of a write this node was answered for: its state has it once applied that far. */
    public long answeredIndex() {
        return router.answeredIndex();
    }

    public ClusterStatus status() {
        return status.status();
    }

    // ------------------------------------------------------------------ membership

    /**
     * Adds a voting member (a node started with {@code join}) through the leader, once its log has caught
     * up; blocks until the change is committed. Returns the members after it.
     *
     * @throws MembershipException when it is refused or fails
     */
    public List<RaftNodeSettings.PeerAddress> addMember(RaftNodeSettings.PeerAddress peer) {
        return membership.add(peer);
    }

    /** Removes a member (the leader too: it steps down); blocks until committed. Returns the members after it. */
    public List<RaftNodeSettings.PeerAddress> removeMember(String id) {
        return membership.remove(id);
    }
}
