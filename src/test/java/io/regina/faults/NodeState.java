package io.regina.faults;

import java.util.Map;

/** What one node answers after the drain: its applied index and, per consumer group, the queue's size. */
public record NodeState(String node, long appliedIndex, Map<String, Long> sizes) {
    public NodeState {
        sizes = Map.copyOf(sizes);
    }
}
