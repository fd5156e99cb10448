package io.regina.dashboard;

import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
import reactor.core.publisher.Mono;

import java.time.Duration;

/** Submits the dashboard's commands through the {@link CommandBus}, bounded in time. */
final class Submit {
    private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(20);

    private Submit() {
    }

    static Mono<Result> command(CommandBus bus, Command command) {
        return Mono.fromFuture(() -> bus.submit(command)).timeout(COMMIT_TIMEOUT);
    }

    /** The rejection's message, or null when the command was applied. */
    static String rejection(Result result) {
        return result instanceof Result.Rejected rejected ? rejected.message() : null;
    }
}
