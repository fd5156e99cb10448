package io.regina.api;

import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
import org.springframework.stereotype.Component;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;

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
        return new Resumed<>(submission, result -> expected.cast(accepted(result)));
    }

    private static Result accepted(Result result) {
        if (result instanceof Result.Rejected rejected) {
            throw ApiException.rejected(rejected.rejection(), rejected.message());
        }
        return result;
    }

    /**
     * The future's outcome, mapped, delivered on the subscriber's event loop. One operator where
     * {@code Mono.create(...).map(...)} made two: every hot request goes through here, and Reactor's
     * operators were a tenth of the event loop's CPU in the paced lane's profile. The commit timeout is
     * the bus's ({@code GroupCommitter.expire}): one periodic check, not a timer per request.
     */
    private static final class Resumed<R extends Result> extends Mono<R> {
        private final Supplier<CompletableFuture<Result>> submission;
        private final Function<Result, R> map;

        Resumed(Supplier<CompletableFuture<Result>> submission, Function<Result, R> map) {
            this.submission = submission;
            this.map = map;
        }

        @Override
        public void subscribe(CoreSubscriber<? super R> actual) {
            Operators.MonoSubscriber<R, R> answer = new Operators.MonoSubscriber<>(actual);
            actual.onSubscribe(answer);
            if (answer.isCancelled()) {
                return;
            }
            Executor resume = EventLoops.current();
            CompletableFuture<Result> submitted;
            try {
                submitted = submission.get();
            } catch (Throwable e) {
                actual.onError(Operators.onOperatorError(e, actual.currentContext()));
                return;
            }
            submitted.whenComplete((value, error) -> {
                Runnable signal = () -> signal(answer, value, error);
                try {
                    resume.execute(signal);
                } catch (RejectedExecutionException shuttingDown) {
                    signal.run(); // the event loop is closing: answer from here rather than never
                }
            });
        }

        private void signal(Operators.MonoSubscriber<R, R> answer, Result value, Throwable error) {
            if (answer.isCancelled()) {
                return;
            }
            if (error != null) {
                answer.onError(error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error);
                return;
            }
            if (value == null) {
                answer.onComplete();
                return;
            }
            R mapped;
            try {
                mapped = map.apply(value);
            } catch (RuntimeException e) {
                answer.onError(e);
                return;
            }
            answer.complete(mapped);
        }
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
