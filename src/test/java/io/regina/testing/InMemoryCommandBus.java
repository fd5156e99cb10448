package io.regina.testing;

import io.regina.queue.BrokerState;
import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/** A {@link CommandBus} that applies straight to a {@link BrokerState}: for controller slice tests. */
public final class InMemoryCommandBus implements CommandBus {
    private final BrokerState state = new BrokerState();
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private long submitted;

    @Override
    public synchronized CompletableFuture<Result> submit(Command command) {
        submitted++;
        Result result = state.apply(command, System.currentTimeMillis());
        for (String queue : state.drainDeliverable()) {
            listeners.forEach(listener -> listener.accept(queue));
        }
        return CompletableFuture.completedFuture(result);
    }

    @Override
    public synchronized <T> T read(Function<BrokerView, T> query) {
        return query.apply(state.view());
    }

    /** How many commands were submitted so far. */
    public synchronized long submitted() {
        return submitted;
    }

    @Override
    public void onDeliverable(Consumer<String> listener) {
        listeners.add(listener);
    }
}
