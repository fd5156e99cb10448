package io.regina.raft;

import io.regina.queue.BrokerState;
import io.regina.queue.Command;
import io.regina.queue.Result;
import io.regina.queue.StateReader;
import io.regina.queue.StateWriter;

import java.util.List;
import java.util.function.Consumer;

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

    /**
     * Writes the state to {@code out} under the read lock but for a tail that no later apply can change,
     * which the returned writer appends off the lock; all of it at once unless overridden.
     */
    default Consumer<StateWriter> captureTo(S state, StateWriter out) {
        writeTo(state, out);
        return rest -> { };
    }

    /** When the state next needs a tick to fire a timer (epoch ms); never, unless overridden. */
    default long nextTimerDue(S state) {
        return Long.MAX_VALUE;
    }

    /** Whether the leader must also tick every tick interval, with no timer due; always, unless overridden. */
    default boolean needsRegularTicks(S state) {
        return true;
    }

    /**
     * How much work the state left for after its applies (the failed-jobs index), in steps; none unless
     * overridden. The state machine does it with {@link #catchUp} between applies and before any read.
     */
    default int behind(S state) {
        return 0;
    }

    /** Does up to {@code max} steps of the work left; whether some is still left. */
    default boolean catchUp(S state, int max) {
        return false;
    }

    /** The real broker state. */
    static StateAdapter<BrokerState> brokerState() {
        return new StateAdapter<>() {
            @Override
            public BrokerState empty() {
                BrokerState state = new BrokerState();
                state.deferFailedJobIndex();
                return state;
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
            public Consumer<StateWriter> captureTo(BrokerState state, StateWriter out) {
                return state.captureTo(out);
            }

            @Override
            public BrokerState readFrom(StateReader in) {
                BrokerState state = BrokerState.readFrom(in);
                state.deferFailedJobIndex();
                return state;
            }

            @Override
            public long nextTimerDue(BrokerState state) {
                return state.nextTimerDue();
            }

            @Override
            public boolean needsRegularTicks(BrokerState state) {
                return state.needsRegularTicks();
            }

            @Override
            public int behind(BrokerState state) {
                return state.failedJobIndexBehind();
            }

            @Override
            public boolean catchUp(BrokerState state, int max) {
                return state.catchUpFailedJobIndex(max);
            }
        };
    }
}
