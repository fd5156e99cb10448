package io.regina.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads a {@link History} after the drain and says which of the broker's promises it breaks. Only
 * what the clients can prove counts: a lease is "certainly valid" from the pop's answer until the
 * earlier of (pop sent + lease time) and the first ack sent under it, since the broker grants it
 * after the pop was sent and releases it no sooner than an ack arrives; a message was "certainly
 * pushed before" another when its push was answered before the other's first attempt was sent.
 */
public final class Checker {

    private final long leaseMs;
    private final List<String> groups;

    /** {@code groups}: every consumer group the load drained; each must receive every acknowledged push. */
    public Checker(Duration leaseTime, List<String> groups) {
        this.leaseMs = leaseTime.toMillis();
        this.groups = List.copyOf(groups);
    }

    public Report check(History history, List<NodeState> nodes) {
        Map<String, Long> firstSent = new HashMap<>();
        Map<String, Long> firstAcknowledged = new HashMap<>();
        Set<String> pushedMaybe = new HashSet<>();
        for (History.Push push : history.pushes()) {
            firstSent.merge(push.transactionId(), push.invokedAt(), Math::min);
            if (push.outcome() == History.Outcome.OK) {
                firstAcknowledged.merge(push.transactionId(), push.completedAt(), Math::min);
            }
            if (push.outcome() != History.Outcome.FAILED) {
                pushedMaybe.add(push.transactionId());
            }
        }
        Map<String, List<History.Delivery>> byMessage = new LinkedHashMap<>();
        List<String> phantoms = new ArrayList<>();
        for (History.Delivery delivery : history.deliveries()) {
            byMessage.computeIfAbsent(key(delivery.group(), delivery.transactionId()), k -> new ArrayList<>())
                    .add(delivery);
            if (!pushedMaybe.contains(delivery.transactionId())) {
                phantoms.add(key(delivery.group(), delivery.transactionId()));
            }
        }

        List<String> lost = new ArrayList<>();
        for (String group : groups) {
            for (String id : firstAcknowledged.keySet()) {
                if (!byMessage.containsKey(key(group, id))) {
                    lost.add(key(group, id));
                }
            }
        }
        int duplicated = (int) byMessage.values().stream().filter(d -> d.size() > 1).count();
        List<Long> acknowledgedTimes = firstAcknowledged.values().stream().sorted().toList();
        int gapEnd = longestGapEnd(acknowledgedTimes);
        return new Report(firstAcknowledged.size(), lost, duplicated, doubleLeased(history, byMessage),
                reordered(byMessage, firstSent, firstAcknowledged), ackedReturned(history, byMessage), phantoms,
                divergent(nodes), gapEnd == 0 ? 0 : acknowledgedTimes.get(gapEnd) - acknowledgedTimes.get(gapEnd - 1),
                gapEnd == 0 ? 0 : acknowledgedTimes.get(gapEnd - 1));
    }

    private List<String> doubleLeased(History history, Map<String, List<History.Delivery>> byMessage) {
        Map<String, Long> firstAckSent = new HashMap<>();
        for (History.Ack ack : history.acks()) {
            firstAckSent.merge(key(ack.group(), ack.transactionId()) + "@" + ack.leaseId(), ack.invokedAt(),
                    Math::min);
        }
        List<String> found = new ArrayList<>();
        for (Map.Entry<String, List<History.Delivery>> message : byMessage.entrySet()) {
            List<History.Delivery> deliveries = message.getValue();
            for (int i = 0; i < deliveries.size(); i++) {
                for (int j = i + 1; j < deliveries.size(); j++) {
                    History.Delivery a = deliveries.get(i);
                    History.Delivery b = deliveries.get(j);
                    if (!a.leaseId().equals(b.leaseId())
                            && Math.max(a.receivedAt(), b.receivedAt())
                                    < Math.min(validUntil(a, message.getKey(), firstAckSent),
                                            validUntil(b, message.getKey(), firstAckSent))) {
                        found.add(message.getKey() + " leases " + a.leaseId() + "@" + a.node() + " and "
                                + b.leaseId() + "@" + b.node());
                    }
                }
            }
        }
        return found;
    }

    private long validUntil(History.Delivery delivery, String message, Map<String, Long> firstAckSent) {
        long expiry = delivery.invokedAt() + leaseMs;
        Long acked = firstAckSent.get(message + "@" + delivery.leaseId());
        return acked == null ? expiry : Math.min(expiry, acked);
    }

    /**
     * Per (group, partition), the first delivery of each message in the order the clients saw them:
     * a message counts as reordered when a later one in that sequence was acknowledged before it was
     * even sent.
     */
    private static List<String> reordered(Map<String, List<History.Delivery>> byMessage, Map<String, Long> firstSent,
            Map<String, Long> firstAcknowledged) {
        Map<String, List<History.Delivery>> firstByPartition = new TreeMap<>();
        for (List<History.Delivery> deliveries : byMessage.values()) {
            History.Delivery first = deliveries.stream().min(SEEN).orElseThrow();
            firstByPartition.computeIfAbsent(first.group() + "/" + first.partition(), k -> new ArrayList<>())
                    .add(first);
        }
        List<String> found = new ArrayList<>();
        for (List<History.Delivery> sequence : firstByPartition.values()) {
            sequence.sort(SEEN);
            long earliestLaterAcknowledged = Long.MAX_VALUE;
            for (int i = sequence.size() - 1; i >= 0; i--) {
                History.Delivery d = sequence.get(i);
                Long sent = firstSent.get(d.transactionId());
                if (sent != null && earliestLaterAcknowledged < sent) {
                    found.add(key(d.group(), d.transactionId()) + " on " + d.partition());
                }
                Long acknowledged = firstAcknowledged.get(d.transactionId());
                if (acknowledged != null) {
                    earliestLaterAcknowledged = Math.min(earliestLaterAcknowledged, acknowledged);
                }
            }
        }
        return found;
    }

    private static final Comparator<History.Delivery> SEEN = Comparator.comparingLong(History.Delivery::receivedAt)
            .thenComparingInt(History.Delivery::indexInBatch);

    private static List<String> ackedReturned(History history, Map<String, List<History.Delivery>> byMessage) {
        List<String> found = new ArrayList<>();
        for (History.Ack ack : history.acks()) {
            if (!ack.success()) {
                continue;
            }
            for (History.Delivery d : byMessage.getOrDefault(key(ack.group(), ack.transactionId()), List.of())) {
                if (d.invokedAt() > ack.completedAt()) {
                    found.add(key(ack.group(), ack.transactionId()) + " acked at " + ack.completedAt()
                            + " ms, popped again at " + d.invokedAt() + " ms from " + d.node());
                }
            }
        }
        return found;
    }

    private static List<String> divergent(List<NodeState> nodes) {
        List<String> found = new ArrayList<>();
        for (NodeState node : nodes) {
            NodeState reference = nodes.get(0);
            if (node.appliedIndex() != reference.appliedIndex() || !node.sizes().equals(reference.sizes())) {
                found.add(node + " differs from " + reference);
            }
        }
        return found;
    }

    /** The index of the acknowledgement that ends the longest gap; 0 with fewer than two. */
    private static int longestGapEnd(List<Long> acknowledgedTimes) {
        int end = 0;
        for (int i = 1; i < acknowledgedTimes.size(); i++) {
            if (end == 0 || acknowledgedTimes.get(i) - acknowledgedTimes.get(i - 1)
                    > acknowledgedTimes.get(end) - acknowledgedTimes.get(end - 1)) {
                end = i;
            }
        }
        return end;
    }

    private static String key(String group, String transactionId) {
        return group + "/" + transactionId;
    }
}
