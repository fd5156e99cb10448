package io.regina.queue;

import java.util.List;

/**
 * What the dashboard and the API show about the Raft group, as seen by this node.
 *
 * @param nodeId            this node
 * @param role              LEADER, FOLLOWER, CANDIDATE, LISTENER or STOPPED
 * @param leaderId          the leader this node knows of, or null
 * @param term              the current term
 * @param commitIndex       the highest log index this node knows to be committed
 * @param appliedIndex      the highest log index applied to this node's state (reads show this)
 * @param lastSnapshotIndex the index of the newest snapshot on disk, or -1
 * @param peers             every member of the group
 */
public record ClusterStatus(String nodeId, String role, String leaderId, long term, long commitIndex,
                            long appliedIndex, long lastSnapshotIndex, List<Peer> peers) {

    /**
     * One member.
     *
     * @param role        LEADER, FOLLOWER, or UNKNOWN when no leader is known; this node's own role for itself
     * @param matchIndex  the highest index the leader knows this peer stores; -1 unless this node leads
     * @param commitIndex the peer's commit index as this node last heard it; -1 when unknown
     */
    public record Peer(String id, String address, String role, long matchIndex, long commitIndex) { }

    public boolean isLeader() {
        return "LEADER".equals(role);
    }
}
