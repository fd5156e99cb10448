package io.regina.api.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.databind.JsonNode;

import java.util.List;

/** Answer bodies of the system endpoints: health, cluster status, maintenance switches. */
public final class SystemBodies {
    private SystemBodies() {
    }

    /** {@code error} only when unhealthy, as Queen's. */
    public record Health(String status, String database, String server, String version,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String error) {
    }

    public record Cluster(String nodeId, String role, String leaderId, long term, long commitIndex, long appliedIndex,
                          long lastSnapshotIndex, List<Peer> peers) {
    }

    /** {@code lag} and {@code lastContactMs} are Regina's (docs/api-extensions.md, "Cluster peers"). */
    public record Peer(String id, String address, String role, long matchIndex, long commitIndex, long lag,
                       long lastContactMs) {
    }

    /** {@code POST /api/v1/cluster/members}: the new member's id and the host:port of its Raft server. */
    public record MemberRequest(String id, String address) {
    }

    public record Member(String id, String address) {
    }

    /** The members after a change. */
    public record Members(List<Member> members) {
    }

    /** {@code enabled} is any JSON here: anything but true or false is refused with one message. */
    public record MaintenanceRequest(JsonNode enabled) {
    }

    public record Maintenance(boolean maintenanceMode, boolean popMaintenanceMode, int bufferedMessages,
                              boolean bufferHealthy) {
    }
}
