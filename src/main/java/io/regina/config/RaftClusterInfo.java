package io.regina.config;

import io.regina.queue.ClusterInfo;
import io.regina.queue.ClusterMembership;
import io.regina.queue.ClusterStatus;
import io.regina.queue.MembershipException;
import io.regina.raft.RaftNode;
import io.regina.raft.RaftNodeSettings;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.regex.Pattern;

/** {@link ClusterInfo} and {@link ClusterMembership} from the running Raft node. */
@Component
class RaftClusterInfo implements ClusterInfo, ClusterMembership {
    /** Ids appear in URL paths and Ratis' metric names: keep them to letters, digits, '.', '_' and '-'. */
    private static final Pattern MEMBER_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

    private final RaftNode node;

    RaftClusterInfo(RaftNode node) {
        this.node = node;
    }

    @Override
    public ClusterStatus status() {
        return node.status();
    }

    @Override
    public String nodeId() {
        return node.nodeId();
    }

    @Override
    public String stopped() {
        String why = node.stoppedByItself();
        return why == null ? null : "raft node " + node.nodeId() + " stopped: its " + why + "; it exits to be restarted";
    }

    @Override
    public List<Member> add(String id, String address) {
        if (!MEMBER_ID.matcher(id).matches()) {
            throw new MembershipException(MembershipException.Reason.INVALID, "bad member id '" + id
                    + "': use letters, digits, '.', '_' and '-'");
        }
        RaftNodeSettings.PeerAddress peer;
        try {
            peer = RaftNodeSettings.PeerAddress.parse(id, address);
        } catch (IllegalArgumentException e) {
            throw new MembershipException(MembershipException.Reason.INVALID, e.getMessage());
        }
        return members(node.addMember(peer));
    }

    @Override
    public List<Member> remove(String id) {
        return members(node.removeMember(id));
    }

    private static List<Member> members(List<RaftNodeSettings.PeerAddress> peers) {
        return peers.stream().map(p -> new Member(p.id(), p.address())).toList();
    }
}
