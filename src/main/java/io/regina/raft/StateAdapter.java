package io.regina.raft;

import io.regina.queue.BrokerState;
import io.regina.queue.Command;
import io.regina.queue.Result;
import io.regina.queue.StateReader;
import io.regina.queue.StateWriter;

import java.util.List;

/**
 * How the state machine drives a replicated state of type {@code S}. Production uses
 * {@link #brokerState()}; tests may plug a small fake so the Raft layer is tested on its own.
 */
public interface StateAdapter<S> {

    S empty();

    Result apply(S state, Command command, long now);

    List<String> drainDeliverable(S state);

    void writeTo(S state, StateWriter out);

    S readFrom(StateReader in);

    /** The real broker state. */
    static StateAdapter<BrokerState> brokerState() {
        return new StateAdapter<>() {
            @Override
            public BrokerState empty() {
                return new BrokerState();
            }

            @Override
            public Result apply(BrokerState state, Command command, long now) {
                return state.apply(command, now);
            }

            @Override
            public List<String> drainDeliverable(BrokerState state) {
                return state.drainDeliverable();
            }

            @Override
            public void writeTo(BrokerState state, StateWriter out) {
                state.writeTo(out);
            }

            @Override
            public BrokerState readFrom(StateReader in) {
                return BrokerState.readFrom(in);
            }
        };
    }
}
