package io.regina.raft;

import io.regina.queue.Command;
import io.regina.queue.Rejection;
import io.regina.queue.Result;
import io.regina.queue.StateReader;
import io.regina.queue.StateWriter;
import io.regina.queue.Utf8Text;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tiny deterministic stand-in for {@code BrokerState} while the real one is written: queues of
 * message ids, a tick counter, the last {@code now} seen, and one timer (a push to {@link #TIMERS} whose
 * message id is its due time, epoch ms; the first tick at or after it fires it; not in snapshots). It wants a
 * tick every tick interval until a push to {@link #QUIET} (not in snapshots either). Tests
 * of the Raft layer use it through {@link #ADAPTER}; nothing in main depends on it.
 */
final class FakeState {

    final Map<String, List<String>> queues = new LinkedHashMap<>();
    final Set<String> deliverable = new LinkedHashSet<>();
    long ticks;
    long lastNow = Long.MIN_VALUE;
    long applied;
    long timerDue = Long.MAX_VALUE;
    boolean regularTicks = true;
    /** Each fired timer: {due, the firing tick's now}. */
    final List<long[]> fired = new ArrayList<>();

    static final String TIMERS = "timers";
    static final String QUIET = "quiet";

    static final StateAdapter<FakeState> ADAPTER = new StateAdapter<>() {
        @Override
        public FakeState empty() {
            return new FakeState();
        }

        @Override
        public Result apply(FakeState state, Command command, long now) {
            return state.apply(command, now);
        }

        @Override
        public List<String> drainDeliverable(FakeState state) {
            List<String> names = new ArrayList<>(state.deliverable);
            state.deliverable.clear();
            return names;
        }

        @Override
        public long nextTimerDue(FakeState state) {
            return state.timerDue;
        }

        @Override
        public boolean needsRegularTicks(FakeState state) {
            return state.regularTicks;
        }

        @Override
        public void writeTo(FakeState state, StateWriter out) {
            out.writeLong(state.ticks);
            out.writeLong(state.lastNow);
            out.writeLong(state.applied);
            out.writeInt(state.queues.size());
            for (Map.Entry<String, List<String>> e : state.queues.entrySet()) {
                out.writeString(e.getKey());
                out.writeInt(e.getValue().size());
                for (String id : e.getValue()) {
                    out.writeString(id);
                }
            }
        }

        @Override
        public FakeState readFrom(StateReader in) {
            FakeState state = new FakeState();
            state.ticks = in.readLong();
            state.lastNow = in.readLong();
            state.applied = in.readLong();
            int queues = in.readInt();
            for (int i = 0; i < queues; i++) {
                String name = in.readString();
                int n = in.readInt();
                List<String> ids = new ArrayList<>(n);
                for (int j = 0; j < n; j++) {
                    ids.add(in.readString());
                }
                state.queues.put(name, ids);
            }
            return state;
        }
    };

    Result apply(Command command, long now) {
        if (now < lastNow) {
            throw new AssertionError("time went backwards: " + now + " < " + lastNow);
        }
        lastNow = now;
        applied++;
        if (command instanceof Command.Configure c) {
            queues.computeIfAbsent(c.queue(), q -> new ArrayList<>());
            return new Result.Configured("qid-" + c.queue(), null, c.queue(), c.namespace(), c.task(), c.options());
        }
        if (command instanceof Command.Push push) {
            List<Result.PushOutcome> outcomes = new ArrayList<>();
            for (int i = 0; i < push.items().size(); i++) {
                Command.PushItem item = push.items().get(i);
                queues.computeIfAbsent(item.queue(), q -> new ArrayList<>()).add(item.messageId());
                deliverable.add(item.queue());
                if (QUIET.equals(item.queue())) {
                    regularTicks = false;
                }
                if (TIMERS.equals(item.queue())) {
                    timerDue = Math.min(timerDue, Long.parseLong(item.messageId()));
                }
                outcomes.add(new Result.PushOutcome(i, item.transactionId(), Result.PushStatus.QUEUED,
                        item.messageId(), "p0", item.traceId(), item.queue()));
            }
            return new Result.Pushed(outcomes);
        }
        if (command instanceof Command.Tick) {
            ticks++;
            if (now >= timerDue) {
                fired.add(new long[] {timerDue, now});
                timerDue = Long.MAX_VALUE;
            }
            return new Result.Ticked(0, 0, 0);
        }
        if (command instanceof Command.ClearQueue c && "boom".equals(c.queue())) {
            throw new IllegalStateException("a domain bug");
        }
        if (command instanceof Command.ClearQueue c && "error".equals(c.queue())) {
            throw new AssertionError("an error no apply can answer (as an OutOfMemoryError)");
        }
        return new Result.Rejected(Rejection.INVALID_REQUEST, "the fake state does not do " + command);
    }

    int size(String queue) {
        List<String> ids = queues.get(queue);
        return ids == null ? 0 : ids.size();
    }

    List<String> ids(String queue) {
        List<String> ids = queues.get(queue);
        return ids == null ? List.of() : List.copyOf(ids);
    }

    static Command push(String queue, String messageId) {
        return new Command.Push(List.of(new Command.PushItem(queue, null, messageId, "tx-" + messageId,
                Utf8Text.of("{\"n\":\"" + messageId + "\"}"), null, null, 0, 0)));
    }

    /** A push of one message whose payload is a JSON string of {@code payloadBytes} bytes. */
    static Command push(String queue, String messageId, int payloadBytes) {
        String payload = "\"" + "x".repeat(payloadBytes - 2) + "\"";
        return new Command.Push(List.of(new Command.PushItem(queue, null, messageId, "tx-" + messageId,
                Utf8Text.of(payload), null, null, 0, 0)));
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
