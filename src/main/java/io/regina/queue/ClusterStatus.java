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
     * @param role          LEADER, FOLLOWER, or UNKNOWN when no leader is known; this node's own role for itself
     * @param matchIndex    the highest index the leader knows this peer stores; -1 unless this node leads
     * @param commitIndex   the peer's commit index as this node last heard it; -1 when unknown
     * @param lag           how many committed entries this peer is missing (the leader's commit index minus
     *                      its match index, at least 0); -1 unless this node leads
     * @param lastContactMs milliseconds since this node last heard from the peer: on the leader for every
     *                      follower, on a follower for its leader, 0 for this node itself; -1 when unknown
     */
    public record Peer(String id, String address, String role, long matchIndex, long commitIndex, long lag,
                       long lastContactMs) {
        boolean heardWithin(long ms) {
            return lastContactMs >= 0 && lastContactMs <= ms;
        }
    }

    public boolean isLeader() {
        return "LEADER".equals(role);
    }

    /**
     * Whether this node is in touch with a majority of the group, contact older than {@code staleAfterMs}
     * counting as lost: a leader has heard from a majority (itself included) that recently, a follower
     * from its leader. A candidate, or a node that is stopped or not in the group, is not.
     */
    public boolean reachesMajority(long staleAfterMs) {
        if (isLeader()) {
            long inTouch = peers.stream().filter(peer -> peer.heardWithin(staleAfterMs)).count();
            return inTouch > peers.size() / 2;
        }
        if ("FOLLOWER".equals(role) || "LISTENER".equals(role)) {
            return leaderId != null && peers.stream()
                    .anyMatch(peer -> peer.id().equals(leaderId) && peer.heardWithin(staleAfterMs));
        }
        return false;
    }
}
