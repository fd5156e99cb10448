package io.regina.raft;

import io.regina.queue.BrokerState;
import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The {@link CommandBus} of a Raft node: writes go through the {@link GroupCommitter} (replicated,
 * fsynced on a majority, applied, then answered); reads run against this node's applied state
 * under the state machine's read lock. On a follower a read sees this node's applied index
 * ({@link RaftNode#status()}), which may trail the leader's.
 */
public final class RaftCommandBus implements CommandBus {

    private final GroupCommitter committer;
    private final BrokerStateMachine<BrokerState> stateMachine;

    public RaftCommandBus(GroupCommitter committer, BrokerStateMachine<BrokerState> stateMachine) {
        this.committer = Objects.requireNonNull(committer);
        this.stateMachine = Objects.requireNonNull(stateMachine);
    }

    @Override
    public CompletableFuture<Result> submit(Command command) {
        return committer.submit(Objects.requireNonNull(command, "command"));
    }

    @Override
    public <T> T read(Function<BrokerView, T> query) {
        return stateMachine.read(state -> query.apply(state.view()));
    }

    @Override
    public void onDeliverable(Consumer<String> listener) {
        stateMachine.onDeliverable(listener);
    }
}
