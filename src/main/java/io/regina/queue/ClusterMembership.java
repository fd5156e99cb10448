package io.regina.queue;

import java.util.List;

/**
 * The port through which the API changes who belongs to the replication group. Each call blocks until
 * the group has committed the change, and throws {@link MembershipException} when it is refused or fails.
 */
public interface ClusterMembership {

    /** One voting member: its id and the {@code host:port} of its Raft server. */
    record Member(String id, String address) { }

    /** Adds {@code id} at {@code address} ({@code host:raftPort}); the members after the change. */
    List<Member> add(String id, String address);

    /** Removes {@code id}; the members after the change. */
    List<Member> remove(String id);
}
