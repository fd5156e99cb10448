package io.regina.api;

import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;

/** The controllers' view of the {@link CommandBus}: reactive, bounded in time, rejections as 4xx. */
@Component
class Broker {

    private final CommandBus bus;

    Broker(CommandBus bus) {
        this.bus = bus;
    }

    /**
     * Submits a command and completes with its result, or fails with the rejection as an {@link ApiException},
     * on the thread that subscribed (its {@link EventLoops event loop}).
     */
    <R extends Result> Mono<R> submit(Command command, Class<R> expected) {
        return submit(() -> bus.submit(command), expected);
    }

    /** As {@link #submit(Command, Class)}, for a submission made another way ({@link PopWaiters#submitServing}). */
    <R extends Result> Mono<R> submit(Supplier<CompletableFuture<Result>> submission, Class<R> expected) {
        return resumed(submission).map(result -> expected.cast(accepted(result)));
    }

    private static Result accepted(Result result) {
        if (result instanceof Result.Rejected rejected) {
            throw ApiException.rejected(rejected.rejection(), rejected.message());
        }
        return result;
    }

    /**
     * The future's outcome, delivered on the subscriber's event loop. The commit timeout is the bus's
     * ({@code GroupCommitter.expire}): one periodic check, not a timer per request.
     */
    private static <T> Mono<T> resumed(Supplier<CompletableFuture<T>> submission) {
        return Mono.<T>create(sink -> {
            Executor resume = EventLoops.current();
            submission.get().whenComplete((value, error) -> {
                Runnable signal;
                if (error != null) {
                    Throwable cause = error instanceof CompletionException && error.getCause() != null
                            ? error.getCause() : error;
                    signal = () -> sink.error(cause);
                } else {
                    signal = () -> sink.success(value);
                }
                try {
                    resume.execute(signal);
                } catch (RejectedExecutionException shuttingDown) {
                    signal.run(); // the event loop is closing: answer from here rather than never
                }
            });
        });
    }

    /** {@link CommandBus#submitTogether}: one entry, applied in this order. */
    List<CompletableFuture<Result>> submitTogether(List<Command> commands) {
        return bus.submitTogether(commands);
    }

    /** See {@link CommandBus#seesItsAnswers()}. */
    boolean seesItsAnswers() {
        return bus.seesItsAnswers();
    }

    <T> T read(Function<BrokerView, T> query) {
        return bus.read(query);
    }
}
