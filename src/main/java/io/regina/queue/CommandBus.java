package io.regina.queue;

import java.util.ArrayList;
import java.util.List;
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
     * Submits commands to be applied in this order, each future completing with its own command's result.
     * A Raft bus puts them in one log entry, so no other command comes between them; this default
     * submits them one by one.
     */
    default List<CompletableFuture<Result>> submitTogether(List<Command> commands) {
        List<CompletableFuture<Result>> results = new ArrayList<>(commands.size());
        for (Command command : commands) {
            results.add(submit(command));
        }
        return results;
    }

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

    /**
     * True when {@link #read} sees every write this node has answered. A follower is answered once the
     * leader applied a write, and applies it itself a moment later: until then a read there may miss
     * what its own client was just told is done. A bus that applies before it answers always sees them.
     */
    default boolean seesItsAnswers() {
        return true;
    }
}
