package io.regina.queue;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether a node reaches a majority, from the last contacts it reports. */
class ClusterStatusTest {
    private static final long STALE = 4_000;

    private static ClusterStatus.Peer peer(String id, String role, long lastContactMs) {
        return new ClusterStatus.Peer(id, "127.0.0.1:1", role, -1, -1, -1, lastContactMs);
    }

    private static ClusterStatus status(String role, String leader, ClusterStatus.Peer... peers) {
        return new ClusterStatus("n1", role, leader, 2, 10, 10, -1, List.of(peers));
    }

    @Test
    void aLeaderNeedsRecentContactWithAMajorityItselfIncluded() {
        assertThat(status("LEADER", "n1", peer("n1", "LEADER", 0), peer("n2", "FOLLOWER", 100),
                peer("n3", "FOLLOWER", 9_000)).reachesMajority(STALE)).isTrue();
        assertThat(status("LEADER", "n1", peer("n1", "LEADER", 0), peer("n2", "FOLLOWER", 4_001),
                peer("n3", "FOLLOWER", -1)).reachesMajority(STALE)).isFalse();
        // four members: two of four is not a majority
        assertThat(status("LEADER", "n1", peer("n1", "LEADER", 0), peer("n2", "FOLLOWER", 10),
                peer("n3", "FOLLOWER", 9_000), peer("n4", "FOLLOWER", 9_000)).reachesMajority(STALE)).isFalse();
    }

    @Test
    void theSingleNodeReachesItself() {
        assertThat(status("LEADER", "n1", peer("n1", "LEADER", 0)).reachesMajority(STALE)).isTrue();
    }

    @Test
    void aFollowerNeedsRecentContactWithItsLeader() {
        assertThat(status("FOLLOWER", "n2", peer("n1", "FOLLOWER", 0), peer("n2", "LEADER", 300),
                peer("n3", "FOLLOWER", -1)).reachesMajority(STALE)).isTrue();
        assertThat(status("FOLLOWER", "n2", peer("n1", "FOLLOWER", 0), peer("n2", "LEADER", 4_500),
                peer("n3", "FOLLOWER", -1)).reachesMajority(STALE)).isFalse();
        assertThat(status("FOLLOWER", null, peer("n1", "FOLLOWER", 0), peer("n2", "UNKNOWN", -1))
                .reachesMajority(STALE)).isFalse();
    }

    @Test
    void aCandidateOrAStoppedNodeDoesNot() {
        assertThat(status("CANDIDATE", "n2", peer("n1", "CANDIDATE", 0), peer("n2", "LEADER", 10))
                .reachesMajority(STALE)).isFalse();
        assertThat(status("STOPPED", null, peer("n1", "UNKNOWN", -1)).reachesMajority(STALE)).isFalse();
    }
}
