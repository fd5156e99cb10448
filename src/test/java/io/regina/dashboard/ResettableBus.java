package io.regina.dashboard;

import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
import io.regina.testing.InMemoryCommandBus;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/** An {@link InMemoryCommandBus} that a test can start afresh, so slice tests sharing a context stay independent. */
final class ResettableBus implements CommandBus {
    private volatile InMemoryCommandBus current = new InMemoryCommandBus();

    void reset() {
        current = new InMemoryCommandBus();
    }

    @Override
    public CompletableFuture<Result> submit(Command command) {
        return current.submit(command);
    }

    @Override
    public CompletableFuture<List<Result>> submitTogether(List<Command> commands) {
        return current.submitTogether(commands);
    }

    @Override
    public <T> T read(Function<BrokerView, T> query) {
        return current.read(query);
    }

    @Override
    public void onDeliverable(Consumer<String> listener) {
        current.onDeliverable(listener);
    }
}
