package io.regina.api;

import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.function.Function;

/** The controllers' view of the {@link CommandBus}: reactive, bounded in time, rejections as 4xx. */
@Component
class Broker {
    private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(20);

    private final CommandBus bus;

    Broker(CommandBus bus) {
        this.bus = bus;
    }

    /** Submits a command and completes with its result, or fails with the rejection as an {@link ApiException}. */
    <R extends Result> Mono<R> submit(Command command, Class<R> expected) {
        return Mono.fromFuture(() -> bus.submit(command))
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
