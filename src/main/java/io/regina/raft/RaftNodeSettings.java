package io.regina.raft;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything a {@link RaftNode} needs. With no peers the node is a single-peer group on
 * {@code 127.0.0.1:raftPort}; with peers it is the member {@code nodeId} of that group. A joining node
 * ({@code join}) has no peers either: it starts with the group's id and no members, listening on
 * {@code raftPort}, and becomes a member when the leader adds it ({@code POST /api/v1/cluster/members});
 * once its storage holds the group, a restart recovers the membership from there.
 *
 * @param nodeId             this node's id ({@code n1} when there are no peers)
 * @param peers              the whole group ({@code id=host:port}), empty for the embedded single node
 * @param raftPort           the gRPC port of the single node (with peers, the port comes from the peer list)
 * @param dataDir            root of the Raft storage and removed-groups directories
 * @param snapshotThreshold  take a snapshot every this many applied log entries
 * @param limits             group-commit limits (in-flight entries, commands and bytes per entry)
 * @param tickIntervalMs     the leader submits a {@code Tick} this often; 0 disables it
 * @param startTimeout       how long {@link RaftNode#start()} waits for a leader
 * @param rpcTimeoutMin      Raft election timeout lower bound
 * @param rpcTimeoutMax      Raft election timeout upper bound
 * @param join               start outside the group, to be added to a running one
 * @param log                how big log segments grow and how far a snapshot lets the leader purge
 */
public record RaftNodeSettings(
        String nodeId,
        List<PeerAddress> peers,
        int raftPort,
        Path dataDir,
        long snapshotThreshold,
        GroupCommitter.Limits limits,
        long tickIntervalMs,
        Duration startTimeout,
        Duration rpcTimeoutMin,
        Duration rpcTimeoutMax,
        boolean join,
        LogRetention log) {

    public static final String DEFAULT_NODE_ID = "n1";
    public static final int DEFAULT_RAFT_PORT = 6642;
    /**
     * Applied entries between snapshots. Each snapshot lets the log's closed segments go, and with them the record
     * Ratis keeps on the heap for every entry: at 10,000 those records outlived two or three young collections at
     * 1,000 jobs/s and each collection copied them again. A large state still waits for its image's worth of log
     * ({@link SnapshotPace}), so this bounds how often small states are written, not large ones.
     */
    public static final long DEFAULT_SNAPSHOT_THRESHOLD = 2_000;

    /** One member of the group. */
    public record PeerAddress(String id, String host, int port) {
        public PeerAddress {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("a peer needs an id");
            }
            if (host == null || host.isBlank() || port <= 0 || port > 65535) {
                throw new IllegalArgumentException("peer " + id + " needs host:port, got " + host + ":" + port);
            }
        }

        /** The member {@code id} at {@code host:port}. */
        public static PeerAddress parse(String id, String hostPort) {
            String address = hostPort == null ? "" : hostPort.trim();
            int colon = address.lastIndexOf(':');
            if (colon < 1 || colon == address.length() - 1) {
                throw new IllegalArgumentException("expected host:port, got '" + address + "'");
            }
            int port;
            try {
                port = Integer.parseInt(address.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad port in '" + address + "'");
            }
            return new PeerAddress(id, address.substring(0, colon).trim(), port);
        }

        public String address() {
            return host + ":" + port;
        }
    }

    /**
     * @param segmentBytes      roll a log segment past this size; 0 for the default (256 KB). Only closed
     *                          segments are purged.
     * @param purgeUpToSnapshot after a snapshot, purge the log up to it even if a member that is down or
     *                          behind still needs those entries: it then installs the snapshot from the
     *                          leader. Off (Ratis' default), a member that stays down stops the leader
     *                          purging at all, and its log grows until that member is back.
     */
    public record LogRetention(long segmentBytes, boolean purgeUpToSnapshot) {
        public LogRetention {
            if (segmentBytes < 0) {
                throw new IllegalArgumentException("segment size must not be negative, got " + segmentBytes);
            }
        }

        public static LogRetention defaults() {
            return new LogRetention(0, false);
        }
    }

    public RaftNodeSettings {
        Objects.requireNonNull(dataDir, "dataDir");
        peers = List.copyOf(peers == null ? List.of() : peers);
        if (nodeId == null || nodeId.isBlank()) {
            if (!peers.isEmpty() || join) {
                throw new IllegalArgumentException(
                        "regina.node-id is required when regina.peers or regina.join is set");
            }
            nodeId = DEFAULT_NODE_ID;
        }
        if (join && !peers.isEmpty()) {
            throw new IllegalArgumentException("a joining node (regina.join) learns the group from its leader: "
                    + "leave regina.peers empty");
        }
        if (join && (raftPort <= 0 || raftPort > 65535)) {
            throw new IllegalArgumentException("a joining node needs regina.raft-port, got " + raftPort);
        }
        Set<String> ids = new HashSet<>();
        for (PeerAddress peer : peers) {
            if (!ids.add(peer.id())) {
                throw new IllegalArgumentException("peer id " + peer.id() + " appears twice in regina.peers");
            }
        }
        if (!peers.isEmpty() && !ids.contains(nodeId)) {
            throw new IllegalArgumentException("this node (" + nodeId + ") is not in regina.peers " + peers);
        }
        if (snapshotThreshold < 1) {
            throw new IllegalArgumentException("snapshot threshold must be positive, got " + snapshotThreshold);
        }
        limits = limits == null ? GroupCommitter.Limits.defaults() : limits;
        startTimeout = startTimeout == null ? Duration.ofSeconds(60) : startTimeout;
        rpcTimeoutMin = rpcTimeoutMin == null ? Duration.ofSeconds(1) : rpcTimeoutMin;
        rpcTimeoutMax = rpcTimeoutMax == null ? Duration.ofSeconds(2) : rpcTimeoutMax;
        log = log == null ? LogRetention.defaults() : log;
    }

    /** A node that is not joining: a member of {@code peers}, or the single node. */
    public RaftNodeSettings(String nodeId, List<PeerAddress> peers, int raftPort, Path dataDir, long snapshotThreshold,
            GroupCommitter.Limits limits, long tickIntervalMs, Duration startTimeout, Duration rpcTimeoutMin,
            Duration rpcTimeoutMax) {
        this(nodeId, peers, raftPort, dataDir, snapshotThreshold, limits, tickIntervalMs, startTimeout, rpcTimeoutMin,
                rpcTimeoutMax, false, null);
    }

    /** The embedded single node with every default, data in {@code dataDir}. */
    public static RaftNodeSettings singleNode(Path dataDir, int raftPort) {
        return new RaftNodeSettings(DEFAULT_NODE_ID, List.of(), raftPort, dataDir, DEFAULT_SNAPSHOT_THRESHOLD,
                GroupCommitter.Limits.defaults(), 1000, null, null, null);
    }

    /** Parses {@code id=host:port,id=host:port}; blank gives an empty list. */
    public static List<PeerAddress> parsePeers(String spec) {
        List<PeerAddress> peers = new ArrayList<>();
        if (spec == null || spec.isBlank()) {
            return peers;
        }
        for (String part : spec.split(",")) {
            String item = part.trim();
            if (item.isEmpty()) {
                continue;
            }
            int eq = item.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("bad peer '" + item + "' in regina.peers: expected id=host:port");
            }
            try {
                peers.add(PeerAddress.parse(item.substring(0, eq).trim(), item.substring(eq + 1).trim()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad peer '" + item + "' in regina.peers: " + e.getMessage());
            }
        }
        return peers;
    }

    public boolean singleNode() {
        return peers.isEmpty() && !join;
    }

    /** The group the server starts with: the peer list, this node alone on loopback, or none when joining. */
    public List<PeerAddress> initialPeers() {
        if (join) {
            return List.of();
        }
        return peers.isEmpty() ? List.of(new PeerAddress(nodeId, "127.0.0.1", raftPort)) : peers;
    }

    /** Where this node listens: its entry in the peer list, else {@code raftPort} (on every interface when joining). */
    public PeerAddress self() {
        if (join) {
            return new PeerAddress(nodeId, "0.0.0.0", raftPort);
        }
        return initialPeers().stream().filter(p -> p.id().equals(nodeId)).findFirst().orElseThrow();
    }

    public RaftNodeSettings withSnapshotThreshold(long threshold) {
        return new RaftNodeSettings(nodeId, peers, raftPort, dataDir, threshold, limits, tickIntervalMs, startTimeout,
                rpcTimeoutMin, rpcTimeoutMax, join, log);
    }

    public RaftNodeSettings withLimits(GroupCommitter.Limits newLimits) {
        return new RaftNodeSettings(nodeId, peers, raftPort, dataDir, snapshotThreshold, newLimits, tickIntervalMs,
                startTimeout, rpcTimeoutMin, rpcTimeoutMax, join, log);
    }

    public RaftNodeSettings withTickIntervalMs(long interval) {
        return new RaftNodeSettings(nodeId, peers, raftPort, dataDir, snapshotThreshold, limits, interval,
                startTimeout, rpcTimeoutMin, rpcTimeoutMax, join, log);
    }

    public RaftNodeSettings withStartTimeout(Duration timeout) {
        return new RaftNodeSettings(nodeId, peers, raftPort, dataDir, snapshotThreshold, limits, tickIntervalMs,
                timeout, rpcTimeoutMin, rpcTimeoutMax, join, log);
    }
}
