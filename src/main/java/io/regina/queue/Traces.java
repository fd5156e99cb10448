package io.regina.queue;

import java.util.List;

/** Records trace events in a ring of the newest {@link #MAX_TRACES}. */
final class Traces {

    static final int MAX_TRACES = 10_000;

    private final BrokerState state;

    Traces(BrokerState state) {
        this.state = state;
    }

    Result record(Command.RecordTrace c, long now) {
        state.traces.addLast(new BrokerState.Trace(c.traceId(), c.transactionId(), c.partitionId(), c.group(),
                List.copyOf(c.traceNames()), c.eventType(), c.data(), now));
        while (state.traces.size() > MAX_TRACES) {
            state.traces.removeFirst();
        }
        return new Result.TraceRecorded(c.traceId());
    }
}
