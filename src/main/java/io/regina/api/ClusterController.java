package io.regina.api;

import io.regina.api.dto.SystemBodies;
import io.regina.queue.ClusterInfo;
import io.regina.queue.ClusterMembership;
import io.regina.queue.ClusterStatus;
import io.regina.queue.MembershipException;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code GET /api/v1/cluster} (API.md B4): this node, the leader, the indexes and every peer; and
 * Regina's membership changes, {@code POST /api/v1/cluster/members} and
 * {@code DELETE /api/v1/cluster/members/{id}} (docs/api-extensions.md, "Cluster membership").
 */
@RestController
class ClusterController {
    private final ClusterInfo cluster;
    private final ClusterMembership membership;

    ClusterController(ClusterInfo cluster, ClusterMembership membership) {
        this.cluster = cluster;
        this.membership = membership;
    }

    @GetMapping("/api/v1/cluster")
    SystemBodies.Cluster cluster() {
        ClusterStatus status = cluster.status();
        List<SystemBodies.Peer> peers = new ArrayList<>(status.peers().size());
        for (ClusterStatus.Peer peer : status.peers()) {
            peers.add(new SystemBodies.Peer(peer.id(), peer.address(), peer.role(), peer.matchIndex(),
                    peer.commitIndex(), peer.lag(), peer.lastContactMs()));
        }
        return new SystemBodies.Cluster(status.nodeId(), status.role(), status.leaderId(), status.term(),
                status.commitIndex(), status.appliedIndex(), status.lastSnapshotIndex(), peers);
    }

    @PostMapping("/api/v1/cluster/members")
    @ResponseStatus(HttpStatus.CREATED)
    Mono<SystemBodies.Members> add(@JsonBody("member") SystemBodies.MemberRequest body) {
        String id = FieldChecks.required(body.id(), "id");
        String address = FieldChecks.required(body.address(), "address");
        return change(() -> membership.add(id.trim(), address));
    }

    @DeleteMapping("/api/v1/cluster/members/{id}")
    Mono<SystemBodies.Members> remove(@PathVariable String id) {
        return change(() -> membership.remove(id));
    }

    /** A change waits for the group to commit it (and a new member to catch up): off the event loop. */
    private static Mono<SystemBodies.Members> change(Callable<List<ClusterMembership.Member>> call) {
        return Mono.fromCallable(call)
                .subscribeOn(Schedulers.boundedElastic())
                .map(members -> new SystemBodies.Members(members.stream()
                        .map(m -> new SystemBodies.Member(m.id(), m.address())).toList()))
                .onErrorMap(MembershipException.class, ClusterController::refusal);
    }

    private static Throwable refusal(MembershipException e) {
        return switch (e.reason()) {
            case INVALID -> ApiException.badRequest(e.getMessage());
            case UNKNOWN_MEMBER -> ApiException.of(HttpStatus.NOT_FOUND, ApiCode.MEMBER_NOT_FOUND, e.getMessage());
            case ALREADY_MEMBER -> ApiException.of(HttpStatus.CONFLICT, ApiCode.MEMBER_EXISTS, e.getMessage());
            case LAST_MEMBER -> ApiException.of(HttpStatus.CONFLICT, ApiCode.LAST_MEMBER, e.getMessage());
            case CHANGING -> ApiException.of(HttpStatus.CONFLICT, ApiCode.MEMBERSHIP_CHANGING, e.getMessage());
            case UNAVAILABLE -> ApiException.of(HttpStatus.SERVICE_UNAVAILABLE, ApiCode.UNAVAILABLE, e.getMessage());
        };
    }
}
