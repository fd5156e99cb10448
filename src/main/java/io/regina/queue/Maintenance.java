package io.regina.queue;

import io.regina.queue.Command.PushItem;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides the maintenance modes: push maintenance buffers pushes and pushes them when it ends; pop
 * maintenance delivers nothing. Ending either wakes every queue's waiters.
 */
final class Maintenance {

    private final BrokerState state;

    Maintenance(BrokerState state) {
        this.state = state;
    }

    Result set(Command.SetMaintenance c, long now) {
        if (c.pop()) {
            state.popMaintenanceMode = c.enabled();
        } else {
            state.maintenanceMode = c.enabled();
            if (!c.enabled() && !state.buffered.isEmpty()) {
                List<PushItem> drained = new ArrayList<>(state.buffered);
                state.buffered.clear();
                for (int i = 0; i < drained.size(); i++) {
                    state.pushes.pushOne(i, drained.get(i), now);
                }
            }
        }
        if (!c.enabled()) {
            state.deliverable.addAll(state.queues.keySet());
        }
        return new Result.Maintenance(state.maintenanceMode, state.popMaintenanceMode, state.buffered.size());
    }
}
