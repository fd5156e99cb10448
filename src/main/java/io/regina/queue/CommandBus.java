package io.regina.queue;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The port through which everything outside the domain reaches the broker state: writes are
 * replicated commands, reads run against this node's applied state.
 */
public interface CommandBus {

    /** Replicate and apply a command; completes with its result once it is durable and applied. */
    CompletableFuture<Result> submit(Command command);

    /**
     * Run a query against one consistent view of this node's applied state. Applies wait while it
     * runs, so a query reads what it needs at once and does not scan without bound.
     */
    <T> T read(Function<BrokerView, T> query);

    /**
     * Be told the names of queues where messages may have become deliverable (pushes, expiries,
     * releases) after each applied entry. Called on the apply thread: listeners must not block.
     */
    void onDeliverable(Consumer<String> listener);
}
