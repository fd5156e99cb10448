package io.regina.queue;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A queue's messages waiting for their delay or release, by their pending sequence number, with how many
 * each group waits for kept as they come and go: a depth asks that every few seconds for every queue, and
 * counting them then walked them all (issue 8).
 */
final class DelayedMessages {
    private final Map<Long, DelayedMessage> byPendingSeq = new LinkedHashMap<>();
    private long forEveryGroup;
    private final Map<String, Long> forOneGroup = new HashMap<>();

    void put(DelayedMessage waiting) {
        DelayedMessage replaced = byPendingSeq.put(waiting.pendingSeq, waiting);
        if (replaced != null) {
            count(replaced, -1);
        }
        count(waiting, 1);
    }

    /** Takes the message waiting under this number out; null when none does. */
    DelayedMessage remove(long pendingSeq) {
        DelayedMessage removed = byPendingSeq.remove(pendingSeq);
        if (removed != null) {
            count(removed, -1);
        }
        return removed;
    }

    void clear() {
        byPendingSeq.clear();
        forEveryGroup = 0;
        forOneGroup.clear();
    }

    int size() {
        return byPendingSeq.size();
    }

    /** In the order they were delayed; read only. */
    Collection<DelayedMessage> values() {
        return byPendingSeq.values();
    }

    /** How many of these the group waits for: those for every group and those only for it. */
    long countFor(String group) {
        return forEveryGroup + forOneGroup.getOrDefault(group, 0L);
    }

    private void count(DelayedMessage waiting, long delta) {
        if (waiting.onlyGroup == null) {
            forEveryGroup += delta;
        } else {
            forOneGroup.merge(waiting.onlyGroup, delta, (a, b) -> a + b == 0 ? null : a + b);
        }
    }
}
