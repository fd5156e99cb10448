package io.regina.raft;

import io.regina.queue.ClusterStatus;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.ratis.metrics.MetricRegistries;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.proto.RaftProtos;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;

/**
 * What this node knows of its group, read from the Ratis division: role, leader, term, indices, each
 * peer's match and commit index, lag and last contact (match indices and lag only on the leader), and
 * the log worker's counters.
 * A node that is not started, or closing, reports {@code STOPPED}.
 */
final class NodeStatus {

    private final RaftNodeSettings settings;
    private final LocalServer local;
    private final BrokerStateMachine<?> stateMachine;
    private final RaftPeerId selfId;

    NodeStatus(RaftNodeSettings settings, LocalServer local, BrokerStateMachine<?> stateMachine) {
        this.settings = settings;
        this.local = local;
        this.stateMachine = stateMachine;
        this.selfId = RaftPeerId.valueOf(settings.nodeId());
    }

    boolean isLeader() {
        RaftServer.Division d = local.division();
        return d != null && !local.isClosing() && d.getInfo().isLeader();
    }

    /** The leader this node knows of, or null. */
    String leaderId() {
        RaftServer.Division d = local.division();
        RaftPeerId leader = d == null ? null : d.getInfo().getLeaderId();
        return leader == null ? null : leader.toString();
    }

    /** A counter of Ratis' log worker for this member ({@code flushCount}, {@code appendEntryCount}); -1 if unknown. */
    long logWorkerCount(String name) {
        RaftServer.Division d = local.division();
        if (d == null) {
            return -1;
        }
        String member = d.getMemberId().toString();
        for (RatisMetricRegistry registry : MetricRegistries.global().getMetricRegistries()) {
            MetricRegistryInfo info = registry.getMetricRegistryInfo();
            if ("log_worker".equals(info.getMetricsComponentName()) && info.getPrefix().contains(member)
                    && registry instanceof RaftMetricRegistries.Registry counters) {
                return counters.count(name);
            }
        }
        return -1;
    }

    ClusterStatus status() {
        RaftServer.Division d = local.division();
        long snapshot = stateMachine.latestSnapshotIndex();
        if (d == null || local.isClosing()) {
            List<ClusterStatus.Peer> peers = new ArrayList<>();
            for (RaftNodeSettings.PeerAddress p : settings.initialPeers()) {
                peers.add(new ClusterStatus.Peer(p.id(), p.address(), "UNKNOWN", -1, -1, -1, -1));
            }
            return new ClusterStatus(settings.nodeId(), "STOPPED", null, 0, -1,
                    stateMachine.getLastAppliedTermIndex().getIndex(), snapshot, peers);
        }
        DivisionInfo info = d.getInfo();
        RaftProtos.RoleInfoProto roleInfo = info.getRoleInfoProto();
        RaftProtos.RaftPeerRole role = roleInfo.getRole();
        RaftPeerId leader = info.getLeaderId();
        long commitIndex = d.getRaftLog().getLastCommittedIndex();
        Map<String, Long> commitIndices = new HashMap<>();
        for (RaftProtos.CommitInfoProto c : d.getCommitInfos()) {
            commitIndices.put(RaftPeerId.valueOf(c.getServer().getId()).toString(), c.getCommitIndex());
        }
        Map<String, Long> matchIndices = role == RaftProtos.RaftPeerRole.LEADER
                ? matchIndices(d, info, roleInfo) : Map.of();
        Map<String, Long> lastContacts = lastContacts(roleInfo, leader);
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
            long match = matchIndices.getOrDefault(id, -1L);
            // a follower may store entries the leader has not committed yet: no lag, not a negative one
            long lag = match < 0 ? -1 : Math.max(0, commitIndex - match);
            peers.add(new ClusterStatus.Peer(id, peer.getAddress(), peerRole, match,
                    commitIndices.getOrDefault(id, -1L), lag, lastContacts.getOrDefault(id, -1L)));
        }
        return new ClusterStatus(settings.nodeId(), role.name(), leader == null ? null : leader.toString(),
                info.getCurrentTerm(), commitIndex, info.getLastAppliedIndex(), snapshot, peers);
    }

    /**
     * Milliseconds since this node last heard from each peer it talks to: a leader from every follower
     * (its last append or heartbeat answer), a follower from its leader; itself 0.
     */
    private Map<String, Long> lastContacts(RaftProtos.RoleInfoProto roleInfo, RaftPeerId leader) {
        Map<String, Long> contacts = new HashMap<>();
        if (roleInfo.hasLeaderInfo()) {
            for (RaftProtos.ServerRpcProto follower : roleInfo.getLeaderInfo().getFollowerInfoList()) {
                contacts.put(RaftPeerId.valueOf(follower.getId().getId()).toString(),
                        follower.getLastRpcElapsedTimeMs());
            }
        } else if (roleInfo.hasFollowerInfo() && leader != null) {
            contacts.put(leader.toString(), roleInfo.getFollowerInfo().getLeaderInfo().getLastRpcElapsedTimeMs());
        }
        contacts.put(selfId.toString(), 0L);
        return contacts;
    }

    /** The leader's view of how far each follower's log matches, and its own flushed index. */
    private Map<String, Long> matchIndices(RaftServer.Division d, DivisionInfo info,
            RaftProtos.RoleInfoProto roleInfo) {
        Map<String, Long> matchIndices = new HashMap<>();
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
        return matchIndices;
    }
}
