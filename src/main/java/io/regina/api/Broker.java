package io.regina.api;

import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/** The controllers' view of the {@link CommandBus}: reactive, bounded in time, rejections as 4xx. */
@Component
class Broker {
    private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(20);

    private final CommandBus bus;

    Broker(CommandBus bus) {
        this.bus = bus;
    }

    /**
     * Submits a command and completes with its result, or fails with the rejection as an {@link ApiException},
     * on the thread that subscribed (its {@link EventLoops event loop}).
     */
    <R extends Result> Mono<R> submit(Command command, Class<R> expected) {
        return Mono.<Result>create(sink -> {
                    Executor resume = EventLoops.current();
                    bus.submit(command).whenComplete((result, error) -> {
                        if (error != null) {
                            Throwable cause = error instanceof CompletionException && error.getCause() != null
                                    ? error.getCause() : error;
                            resume.execute(() -> sink.error(cause));
                        } else {
                            resume.execute(() -> sink.success(result));
                        }
                    });
                })
                .timeout(COMMIT_TIMEOUT)
                .map(result -> {
                    if (result instanceof Result.Rejected rejected) {
                        throw ApiException.rejected(rejected.rejection(), rejected.message());
                    }
                    return expected.cast(result);
                });
    }

    <T> T read(Function<BrokerView, T> query) {
        return bus.read(query);
    }
}
