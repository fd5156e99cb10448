package io.regina.raft;

import io.regina.queue.MembershipException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.protocol.exceptions.RaftException;
import org.apache.ratis.protocol.exceptions.ReconfigurationInProgressException;
import org.apache.ratis.protocol.exceptions.SetConfigurationException;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds and removes members with Ratis' {@code setConfiguration}, sent to the leader from any node. The
 * leader first brings a new member's log up to date (appends, or a snapshot) as a non-voting staging
 * peer, then commits the joint and the new configuration; a removed leader steps down once the new one
 * is committed. The change is compare-and-set against the members this node sees, so two operators'
 * changes cannot overwrite each other: the second gets {@link MembershipException.Reason#CHANGING}.
 */
final class Membership {

    private static final Logger LOG = LoggerFactory.getLogger(Membership.class);

    private final RaftNodeSettings settings;
    private final LocalServer local;

    Membership(RaftNodeSettings settings, LocalServer local) {
        this.settings = settings;
        this.local = local;
    }

    /** Adds {@code peer} as a voting member; returns the members after the change. */
    List<RaftNodeSettings.PeerAddress> add(RaftNodeSettings.PeerAddress peer) {
        List<RaftPeer> current = currentPeers();
        for (RaftPeer member : current) {
            if (member.getId().toString().equals(peer.id()) || member.getAddress().equals(peer.address())) {
                throw new MembershipException(MembershipException.Reason.ALREADY_MEMBER, "the group already has "
                        + member.getId() + " at " + member.getAddress());
            }
        }
        List<RaftPeer> next = new ArrayList<>(current);
        next.add(RaftPeer.newBuilder().setId(peer.id()).setAddress(peer.address()).build());
        return change(current, next, "add " + peer.id() + " at " + peer.address());
    }

    /** Removes the member {@code id} (the leader too); returns the members after the change. */
    List<RaftNodeSettings.PeerAddress> remove(String id) {
        List<RaftPeer> current = currentPeers();
        List<RaftPeer> next = current.stream().filter(member -> !member.getId().toString().equals(id)).toList();
        if (next.size() == current.size()) {
            throw new MembershipException(MembershipException.Reason.UNKNOWN_MEMBER, "no member has id '" + id
                    + "'; the members are " + ids(current));
        }
        if (next.isEmpty()) {
            throw new MembershipException(MembershipException.Reason.LAST_MEMBER, "'" + id
                    + "' is the group's last member: a group cannot remove every member");
        }
        return change(current, next, "remove " + id);
    }

    private List<RaftPeer> currentPeers() {
        RaftServer.Division d = local.division();
        if (d == null || !local.isRunning()) {
            throw new MembershipException(MembershipException.Reason.UNAVAILABLE, "the raft node is not running");
        }
        if (!d.getRaftConf().getPreviousPeers().isEmpty()) {
            throw new MembershipException(MembershipException.Reason.CHANGING,
                    "a membership change is in progress; try again when it is done");
        }
        List<RaftPeer> peers = List.copyOf(d.getRaftConf().getCurrentPeers());
        if (peers.isEmpty()) {
            throw new MembershipException(MembershipException.Reason.UNAVAILABLE, "node " + settings.nodeId()
                    + " is not a member of a group yet: send the change to a member");
        }
        return peers;
    }

    private List<RaftNodeSettings.PeerAddress> change(List<RaftPeer> current, List<RaftPeer> next, String what) {
        LOG.info("membership change: {} ({} -> {})", what, ids(current), ids(next));
        SetConfigurationRequest.Arguments arguments = SetConfigurationRequest.Arguments.newBuilder()
                .setServersInCurrentConf(current)
                .setServersInNewConf(next)
                .setMode(SetConfigurationRequest.Mode.COMPARE_AND_SET)
                .build();
        RaftClientReply reply;
        try (RaftClient client = RaftClient.newBuilder()
                .setProperties(RatisProperties.adminClient(settings))
                .setRaftGroup(RaftGroup.valueOf(RaftNode.GROUP_ID, current))
                .setClientId(ClientId.randomId())
                .setRetryPolicy(RatisProperties.adminRetries())
                .build()) {
            reply = client.admin().setConfiguration(arguments);
        } catch (IOException e) {
            throw failure(what, e);
        }
        if (!reply.isSuccess()) {
            RaftException e = reply.getException();
            throw failure(what, e != null ? e : new IOException("refused: " + reply));
        }
        LOG.info("membership change done: {}", what);
        return next.stream().map(peer -> RaftNodeSettings.PeerAddress.parse(peer.getId().toString(),
                peer.getAddress())).toList();
    }

    private static MembershipException failure(String what, Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && !(cause instanceof RaftException)) {
            cause = cause.getCause();
        }
        boolean changing = cause instanceof ReconfigurationInProgressException
                || cause instanceof SetConfigurationException;
        return new MembershipException(changing ? MembershipException.Reason.CHANGING
                : MembershipException.Reason.UNAVAILABLE, "cannot " + what + ": " + cause.getMessage(), e);
    }

    private static List<String> ids(List<RaftPeer> peers) {
        return peers.stream().map(peer -> peer.getId().toString()).toList();
    }
}
