package io.regina.queue;

import java.util.List;

/**
 * The whole broker state. Skeleton: the real implementation is being written.
 */
public final class BrokerState {

    public Result apply(Command command, long now) {
        throw new IllegalStateException("not yet");
    }

    public List<String> drainDeliverable() {
        return List.of();
    }

    public void writeTo(StateWriter out) {
    }

    public static BrokerState readFrom(StateReader in) {
        return new BrokerState();
    }
}
