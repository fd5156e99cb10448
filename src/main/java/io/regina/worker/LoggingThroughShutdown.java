package io.regina.worker;

import java.util.logging.LogManager;

/**
 * The JDK's logging ({@code java.util.logging}, behind {@link System.Logger}) as it is, except that it keeps
 * working while the JVM shuts down. The JDK's own manager closes every handler in a shutdown hook of its
 * own, which runs beside the worker's stop: whatever a worker logs while it stops on SIGTERM (an ack
 * refused, acks it could not send) would be lost, and it is what an operator needs to read after a deploy.
 * The handlers are left open at exit (the console handler flushes every record). {@link WorkerMain} makes it
 * the JVM's manager.
 */
public final class LoggingThroughShutdown extends LogManager {
    private static final String SHUTDOWN_CLEANER = LogManager.class.getName() + "$Cleaner";

    @Override
    public void reset() {
        if (!Thread.currentThread().getClass().getName().equals(SHUTDOWN_CLEANER)) {
            super.reset();
        }
    }
}
