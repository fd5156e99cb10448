package io.regina.dashboard;

import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
import io.regina.testing.InMemoryCommandBus;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * An {@link InMemoryCommandBus} that a test can start afresh, so slice tests sharing a context stay
 * independent; it counts reads, so a test can see how many views a page was built from.
 */
final class ResettableBus implements CommandBus {
    private volatile InMemoryCommandBus current = new InMemoryCommandBus();
    private final AtomicInteger reads = new AtomicInteger();

    void reset() {
        current = new InMemoryCommandBus();
        reads.set(0);
    }

    /** The reads since the last call (or reset), and starts counting again. */
    int takeReads() {
        return reads.getAndSet(0);
    }

    @Override
    public CompletableFuture<Result> submit(Command command) {
        return current.submit(command);
    }

    @Override
    public <T> T read(Function<BrokerView, T> query) {
        reads.incrementAndGet();
        return current.read(query);
    }

    @Override
    public void onDeliverable(Consumer<String> listener) {
        current.onDeliverable(listener);
    }
}
