package io.regina.raft;

import io.regina.queue.BrokerState;
import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

import org.apache.ratis.server.protocol.TermIndex;

/**
 * The {@link CommandBus} of a Raft node: writes go through the {@link GroupCommitter} (replicated,
 * fsynced on a majority, applied, then answered); reads run against this node's applied state
 * under the state machine's read lock. On a follower a read sees this node's applied index
 * ({@link RaftNode#status()}), which may trail the leader's.
 */
public final class RaftCommandBus implements CommandBus {

    private final GroupCommitter committer;
    private final BrokerStateMachine<BrokerState> stateMachine;
    private final LongSupplier answeredIndex;

    public RaftCommandBus(RaftNode node, BrokerStateMachine<BrokerState> stateMachine) {
        this.committer = node.committer();
        this.stateMachine = Objects.requireNonNull(stateMachine);
        this.answeredIndex = node::answeredIndex;
    }

    @Override
    public CompletableFuture<Result> submit(Command command) {
        return committer.submit(Objects.requireNonNull(command, "command"));
    }

    @Override
    public List<CompletableFuture<Result>> submitTogether(List<Command> commands) {
        return committer.submitTogether(commands);
    }

    @Override
    public <T> T read(Function<BrokerView, T> query) {
        return stateMachine.read(state -> query.apply(state.view()));
    }

    @Override
    public boolean seesItsAnswers() {
        TermIndex applied = stateMachine.getLastAppliedTermIndex();
        return (applied == null ? -1 : applied.getIndex()) >= answeredIndex.getAsLong();
    }

    @Override
    public void onDeliverable(Consumer<String> listener) {
        stateMachine.onDeliverable(listener);
    }
}
