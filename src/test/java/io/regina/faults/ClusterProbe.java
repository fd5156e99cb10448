package io.regina.faults;

import io.regina.testing.BrokerProcess;
import io.regina.testing.Eventually;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What the nodes say of the cluster on {@code GET /api/v1/cluster} and of the queue's depth, asked
 * with short timeouts so a frozen node cannot hold the lane up.
 */
public final class ClusterProbe {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(2);

    private ClusterProbe() {
    }

    public static JsonNode cluster(BrokerProcess node) throws Exception {
        HttpResponse<String> response = node.send("GET", "/api/v1/cluster", null, ASK_TIMEOUT);
        if (response.statusCode() != 200) {
            throw new IllegalStateException(node.baseUrl() + " answered " + response.statusCode());
        }
        return JSON.readTree(response.body());
    }

    /** The id of a node among {@code asked} that calls itself leader and is not in {@code notThese}. */
    public static String awaitLeader(Collection<BrokerProcess> asked, Collection<String> notThese, Duration timeout) {
        return Eventually.await(timeout, "a leader among " + asked.size() + " nodes other than " + notThese, () -> {
            for (BrokerProcess node : asked) {
                try {
                    JsonNode self = cluster(node);
                    String id = self.get("nodeId").asString();
                    if ("LEADER".equals(self.get("role").asString()) && !notThese.contains(id)) {
                        return id;
                    }
                } catch (Exception notAnswering) {
                    // a node starting, stopping or frozen: ask the next
                }
            }
            return null;
        }, id -> id != null);
    }

    /**
     * The leader's match index for {@code peerId} once it stops moving: after the peer was killed,
     * the last of its replies still in flight has arrived and what remains is what it acknowledged.
     */
    public static long settledMatchIndex(BrokerProcess leader, String peerId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long last = matchIndex(leader, peerId);
        while (System.nanoTime() < deadline) {
            Thread.sleep(250);
            long now = matchIndex(leader, peerId);
            if (now == last) {
                return now;
            }
            last = now;
        }
        throw new IllegalStateException(leader.baseUrl() + " still moves the match index of " + peerId);
    }

    private static long matchIndex(BrokerProcess leader, String peerId) throws Exception {
        for (JsonNode peer : cluster(leader).get("peers")) {
            if (peerId.equals(peer.get("id").asString())) {
                return peer.get("matchIndex").asLong();
            }
        }
        throw new IllegalStateException(leader.baseUrl() + " names no peer " + peerId);
    }

    /** Waits until {@code node} is a follower of some other leader (a woken or restarted node has rejoined). */
    public static void awaitFollower(BrokerProcess node, Duration timeout) {
        node.await(timeout, node.baseUrl() + " a follower with a leader", () -> cluster(node),
                c -> "FOLLOWER".equals(c.get("role").asString()) && !c.get("leaderId").isNull());
    }

    /** Waits until {@code node}'s applied index reaches {@code index}. */
    public static void awaitApplied(BrokerProcess node, long index, Duration timeout) {
        node.await(timeout, node.baseUrl() + " applied index " + index, () -> cluster(node).get("appliedIndex").asLong(),
                applied -> applied >= index);
    }

    /**
     * Polls every node until all report one applied index and one depth per group (a tick for a due lease
     * expiry may move the index between two polls, so a few polls find them equal), or the time is up; either way
     * returns what they last said, for the {@link Checker} to judge.
     */
    public static List<NodeState> converged(List<BrokerProcess> nodes, List<String> groups, Duration timeout) {
        AtomicReference<List<NodeState>> last = new AtomicReference<>(List.of());
        Eventually.within(timeout, () -> {
            List<NodeState> states = new ArrayList<>();
            for (BrokerProcess node : nodes) {
                states.add(state(node, groups));
            }
            last.set(states);
            return states.stream().allMatch(s -> s.appliedIndex() == states.get(0).appliedIndex()
                    && s.sizes().equals(states.get(0).sizes()));
        });
        return last.get();
    }

    private static NodeState state(BrokerProcess node, List<String> groups) throws Exception {
        long applied = cluster(node).get("appliedIndex").asLong();
        Map<String, Long> sizes = new LinkedHashMap<>();
        for (String group : groups) {
            String query = Load.QUEUE_MODE.equals(group) ? "" : "?consumerGroup=" + group;
            HttpResponse<String> response = node.send("GET", "/api/v1/queues/" + Load.QUEUE + "/depth" + query, null,
                    ASK_TIMEOUT);
            sizes.put(group, JSON.readTree(response.body()).get("total").asLong());
        }
        return new NodeState(node.baseUrl(), applied, sizes);
    }
}
