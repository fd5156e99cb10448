package io.regina.raft;

import io.regina.queue.ClusterStatus;
import io.regina.queue.Command;
import io.regina.queue.Result;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.metrics.MetricRegistries;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.metrics.impl.RatisMetricRegistryImpl;
import org.apache.ratis.proto.RaftProtos;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.protocol.exceptions.LeaderSteppingDownException;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.protocol.exceptions.RaftException;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.thirdparty.com.codahale.metrics.Counting;
import org.apache.ratis.thirdparty.com.codahale.metrics.Metric;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Regina node: the Ratis server with the {@link BrokerStateMachine}, the {@link GroupCommitter}
 * that feeds it, the client that forwards entries to a remote leader, and the leader's tick.
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
    private final RaftPeerId selfId;
    private final RaftGroup group;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private final ExecutorService replyExecutor;
    private final ScheduledExecutorService tickExecutor;
    private final GroupCommitter committer;

    private volatile RaftServer server;
    private volatile RaftServer.Division division;
    private final Object clientLock = new Object();
    private RaftClient forwardClient;
    private CompletableFuture<Result> lastTick = CompletableFuture.completedFuture(null);
    private volatile boolean closed;

    public RaftNode(RaftNodeSettings settings, BrokerStateMachine<?> stateMachine, RaftMetrics metrics) {
        this.settings = Objects.requireNonNull(settings);
        this.stateMachine = Objects.requireNonNull(stateMachine);
        this.metrics = Objects.requireNonNull(metrics);
        this.selfId = RaftPeerId.valueOf(settings.nodeId());
        List<RaftPeer> peers = new ArrayList<>();
        for (RaftNodeSettings.PeerAddress p : settings.effectivePeers()) {
            peers.add(RaftPeer.newBuilder().setId(p.id()).setAddress(p.address()).build());
        }
        this.group = RaftGroup.valueOf(GROUP_ID, peers);
        this.replyExecutor = Executors.newFixedThreadPool(2, daemonThreads("regina-raft-reply-" + settings.nodeId()));
        this.tickExecutor = Executors.newSingleThreadScheduledExecutor(
                daemonThreads("regina-raft-tick-" + settings.nodeId()));
        this.committer = new GroupCommitter(this::sendEntry, replyExecutor, metrics, settings.limits());
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
        return settings.dataDir().resolve("raft");
    }

    /** Ratis' settings for this node; every value that matters for durability is set explicitly. */
    RaftProperties raftProperties() {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        RaftNodeSettings.PeerAddress self = settings.self();
        GrpcConfigKeys.Server.setPort(p, self.port());
        if (settings.singleNode()) {
            GrpcConfigKeys.Server.setHost(p, self.host()); // the embedded node listens on loopback only
        }
        long maxEntry = maxRequestBytes(settings.limits());
        int bufferBytes = (int) Math.max(16L << 20, 2 * maxEntry);
        GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(2L * bufferBytes));

        RaftServerConfigKeys.setStorageDir(p, List.of(storageDir().toFile()));
        RaftServerConfigKeys.setRemovedGroupsDir(p, settings.dataDir().resolve("raft-removed-groups").toFile());

        // durability: acknowledge only after fsync; log-metadata lets a node recover its commit index
        RaftServerConfigKeys.Log.setUnsafeFlushEnabled(p, false);
        RaftServerConfigKeys.Log.setAsyncFlushEnabled(p, false);
        RaftServerConfigKeys.Log.setLogMetadataEnabled(p, true);
        RaftServerConfigKeys.Log.StateMachineData.setSync(p, true);
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(Math.max(32L << 20, 4 * maxEntry)));
        RaftServerConfigKeys.Log.setPreallocatedSize(p, SizeInBytes.valueOf(4L << 20));
        // an entry must fit in the write buffer (a bigger one stops the log worker) and the appender buffer
        // (Ratis requires write buffer >= appender byte limit + 8)
        RaftServerConfigKeys.Log.setWriteBufferSize(p, SizeInBytes.valueOf(bufferBytes + (1L << 20)));
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, SizeInBytes.valueOf(bufferBytes));

        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, settings.snapshotThreshold());
        RaftServerConfigKeys.Snapshot.setTriggerWhenStopEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);

        // small CI VMs: GC or fsync pauses must not cause elections
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, duration(settings.rpcTimeoutMin().toMillis()));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, duration(settings.rpcTimeoutMax().toMillis()));
        RaftServerConfigKeys.Rpc.setRequestTimeout(p, duration(10_000));
        if (settings.singleNode()) {
            RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMin(p, duration(50));
            RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMax(p, duration(150));
        }
        return p;
    }

    private static TimeDuration duration(long millis) {
        return TimeDuration.valueOf(millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts the server (RECOVER when the storage already holds the group, FORMAT otherwise) and
     * blocks until a leader is known (single node: until it is leader-ready), at most
     * {@link RaftNodeSettings#startTimeout()}.
     */
    public synchronized void start() throws IOException {
        if (closed) {
            throw new IllegalStateException("a closed RaftNode cannot be restarted; build a new one");
        }
        if (server != null) {
            return;
        }
        Files.createDirectories(storageDir());
        boolean existing = Files.isDirectory(storageDir().resolve(GROUP_ID.getUuid().toString()));
        RaftStorage.StartupOption option = existing ? RaftStorage.StartupOption.RECOVER
                : RaftStorage.StartupOption.FORMAT;
        LOG.info("starting raft node {} ({}) in {} with {}", settings.nodeId(), option, storageDir(), group);
        RaftServer s = RaftServer.newBuilder()
                .setServerId(selfId)
                .setGroup(group)
                .setStateMachine(stateMachine)
                .setProperties(raftProperties())
                .setOption(option)
                .build();
        try {
            s.start();
            server = s;
            division = s.getDivision(GROUP_ID);
            awaitLeader();
        } catch (IOException | RuntimeException e) {
            server = null;
            division = null;
            try {
                s.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        if (settings.tickIntervalMs() > 0) {
            tickExecutor.scheduleWithFixedDelay(this::tick, settings.tickIntervalMs(), settings.tickIntervalMs(),
                    TimeUnit.MILLISECONDS);
        }
        LOG.info("raft node {} started: {}", settings.nodeId(), status());
    }

    private void awaitLeader() throws IOException {
        long deadline = System.nanoTime() + settings.startTimeout().toNanos();
        while (System.nanoTime() < deadline) {
            DivisionInfo info = division.getInfo();
            if (settings.singleNode() ? info.isLeaderReady() : info.getLeaderId() != null) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for a raft leader", e);
            }
        }
        throw new IOException("no raft leader after " + settings.startTimeout() + " (node " + settings.nodeId()
                + ", group " + settings.effectivePeers() + "): are a majority of the peers up and reachable?");
    }

    public boolean isRunning() {
        return server != null && !closed;
    }

    /**
     * Stops the tick, lets entries in flight finish, closes the server (which applies what is
     * committed and takes a snapshot, {@code trigger-when-stop}) and fails anything left.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        tickExecutor.shutdownNow();
        committer.drain(5_000);
        RaftClient client;
        synchronized (clientLock) {
            client = forwardClient;
            forwardClient = null;
        }
        if (client != null) {
            try {
                client.close();
            } catch (IOException e) {
                LOG.warn("closing the forwarding client of {}", settings.nodeId(), e);
            }
        }
        RaftServer s = server;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                LOG.warn("closing raft server {}", settings.nodeId(), e);
            }
        }
        committer.close();
        replyExecutor.shutdown();
        try {
            replyExecutor.awaitTermination(5, TimeUnit.SECONDS);
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

    /**
     * Sends one entry: straight into the local server when this node leads (no RPC hop, stable
     * client id and rising call ids for the retry cache), else through a {@link RaftClient} to the
     * leader. Every continuation hops to the reply executor, never runs on a Ratis thread.
     */
    private CompletableFuture<ByteBuffer> sendEntry(byte[] request) {
        RaftServer s = server;
        RaftServer.Division d = division;
        if (s == null || d == null) {
            return CompletableFuture.failedFuture(new IllegalStateException(
                    closed ? "the raft node is shutting down" : "the raft node is not started"));
        }
        Message message = Message.valueOf(UnsafeByteOperations.unsafeWrap(request));
        if (!d.getInfo().isLeader()) {
            return forward(message);
        }
        RaftClientRequest clientRequest = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(selfId)
                .setGroupId(GROUP_ID)
                .setCallId(callIds.incrementAndGet())
                .setMessage(message)
                .setType(RaftClientRequest.writeRequestType())
                .build();
        CompletableFuture<RaftClientReply> reply;
        try {
            reply = s.submitClientRequestAsync(clientRequest);
        } catch (IOException | RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        return reply.handleAsync((r, error) -> {
            Throwable failure = error != null ? unwrap(error) : r.isSuccess() ? null : r.getException();
            if (failure == null) {
                return CompletableFuture.completedFuture(r.getMessage().getContent().asReadOnlyByteBuffer());
            }
            if (isLeadershipFailure(failure)) {
                LOG.debug("{} lost leadership ({}); forwarding the entry", settings.nodeId(), failure.toString());
                return forward(message);
            }
            return CompletableFuture.<ByteBuffer>failedFuture(failure);
        }, replyExecutor).thenCompose(f -> f);
    }

    private static boolean isLeadershipFailure(Throwable t) {
        return t instanceof NotLeaderException || t instanceof LeaderNotReadyException
                || t instanceof LeaderSteppingDownException;
    }

    private static Throwable unwrap(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private CompletableFuture<ByteBuffer> forward(Message message) {
        RaftClient client;
        try {
            client = forwardClient();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        metrics.recordEntryForwarded();
        CompletableFuture<RaftClientReply> reply;
        try {
            reply = client.async().send(message);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        return reply.handleAsync((r, error) -> {
            if (error != null) {
                throw new CompletionException(unwrap(error));
            }
            if (!r.isSuccess()) {
                RaftException e = r.getException();
                throw new CompletionException(e != null ? e : new IOException("entry failed: " + r));
            }
            return r.getMessage().getContent().asReadOnlyByteBuffer();
        }, replyExecutor);
    }

    private RaftClient forwardClient() {
        synchronized (clientLock) {
            if (forwardClient == null) {
                if (closed) {
                    throw new IllegalStateException("the raft node is shutting down");
                }
                RaftProperties p = new RaftProperties();
                RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
                long maxEntry = maxRequestBytes(settings.limits());
                GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(Math.max(32L << 20, 4 * maxEntry)));
                RaftClientConfigKeys.Rpc.setRequestTimeout(p, duration(10_000));
                forwardClient = RaftClient.newBuilder()
                        .setProperties(p)
                        .setRaftGroup(group)
                        .setClientId(ClientId.randomId())
                        .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(150, duration(200)))
                        .build();
            }
            return forwardClient;
        }
    }

    // ------------------------------------------------------------------ tick

    private void tick() {
        try {
            RaftServer.Division d = division;
            if (closed || d == null || !d.getInfo().isLeader() || !lastTick.isDone()) {
                return;
            }
            lastTick = committer.submit(new Command.Tick());
            lastTick.whenComplete((r, e) -> {
                if (e != null && !closed) {
                    LOG.debug("tick failed on {}", settings.nodeId(), e);
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("tick on {} failed", settings.nodeId(), e);
        }
    }

    // ------------------------------------------------------------------ status

    public String nodeId() {
        return settings.nodeId();
    }

    public RaftNodeSettings settings() {
        return settings;
    }

    public BrokerStateMachine<?> stateMachine() {
        return stateMachine;
    }

    public RaftMetrics metrics() {
        return metrics;
    }

    public boolean isLeader() {
        RaftServer.Division d = division;
        return d != null && !closed && d.getInfo().isLeader();
    }

    /** The leader this node knows of, or null. */
    public String leaderId() {
        RaftServer.Division d = division;
        RaftPeerId leader = d == null ? null : d.getInfo().getLeaderId();
        return leader == null ? null : leader.toString();
    }

    /** Raft log fsyncs of this node since it started (Ratis' log-worker {@code flushCount}); -1 if unknown. */
    public long logFlushCount() {
        return logWorkerCount("flushCount");
    }

    /** Raft log entries appended by this node since it started (Ratis' {@code appendEntryCount}); -1 if unknown. */
    public long logAppendCount() {
        return logWorkerCount("appendEntryCount");
    }

    private long logWorkerCount(String name) {
        RaftServer.Division d = division;
        if (d == null) {
            return -1;
        }
        String member = d.getMemberId().toString();
        try {
            for (RatisMetricRegistry registry : MetricRegistries.global().getMetricRegistries()) {
                MetricRegistryInfo info = registry.getMetricRegistryInfo();
                if ("log_worker".equals(info.getMetricsComponentName()) && info.getPrefix().contains(member)
                        && registry instanceof RatisMetricRegistryImpl impl) {
                    Metric metric = impl.get(name);
                    if (metric instanceof Counting counting) {
                        return counting.getCount();
                    }
                }
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("cannot read Ratis metric {}", name, e);
        }
        return -1;
    }

    public ClusterStatus status() {
        RaftServer.Division d = division;
        long snapshot = stateMachine.latestSnapshotIndex();
        if (d == null || closed) {
            List<ClusterStatus.Peer> peers = new ArrayList<>();
            for (RaftNodeSettings.PeerAddress p : settings.effectivePeers()) {
                peers.add(new ClusterStatus.Peer(p.id(), p.address(), "UNKNOWN", -1, -1));
            }
            return new ClusterStatus(settings.nodeId(), "STOPPED", null, 0, -1,
                    stateMachine.getLastAppliedTermIndex().getIndex(), snapshot, peers);
        }
        DivisionInfo info = d.getInfo();
        RaftProtos.RaftPeerRole role = info.getCurrentRole();
        RaftPeerId leader = info.getLeaderId();

        Map<String, Long> commitIndices = new HashMap<>();
        for (RaftProtos.CommitInfoProto c : d.getCommitInfos()) {
            commitIndices.put(RaftPeerId.valueOf(c.getServer().getId()).toString(), c.getCommitIndex());
        }
        Map<String, Long> matchIndices = new HashMap<>();
        if (role == RaftProtos.RaftPeerRole.LEADER) {
            RaftProtos.RoleInfoProto roleInfo = info.getRoleInfoProto();
            long[] matches = info.getFollowerMatchIndices();
            if (roleInfo.hasLeaderInfo() && matches != null) {
                List<RaftProtos.ServerRpcProto> followers = roleInfo.getLeaderInfo().getFollowerInfoList();
                if (followers.size() == matches.length) { // else membership changed between the two calls
                    for (int i = 0; i < matches.length; i++) {
                        matchIndices.put(RaftPeerId.valueOf(followers.get(i).getId().getId()).toString(), matches[i]);
                    }
                }
            }
            matchIndices.put(selfId.toString(), d.getRaftLog().getFlushIndex());
        }
        List<ClusterStatus.Peer> peers = new ArrayList<>();
        for (RaftPeer peer : d.getRaftConf().getCurrentPeers()) {
            String id = peer.getId().toString();
            String peerRole;
            if (peer.getId().equals(selfId)) {
                peerRole = role.name();
            } else if (peer.getId().equals(leader)) {
                peerRole = "LEADER";
            } else {
                peerRole = leader == null ? "UNKNOWN" : "FOLLOWER";
            }
            peers.add(new ClusterStatus.Peer(id, peer.getAddress(), peerRole, matchIndices.getOrDefault(id, -1L),
                    commitIndices.getOrDefault(id, -1L)));
        }
        return new ClusterStatus(settings.nodeId(), role.name(), leader == null ? null : leader.toString(),
                info.getCurrentTerm(), d.getRaftLog().getLastCommittedIndex(), info.getLastAppliedIndex(), snapshot,
                peers);
    }
}
