package io.regina.api;

import io.netty.util.internal.ThreadExecutorMap;

import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

/**
 * Where a request continues once the broker answers it: the Netty event loop that read the request,
 * so the answer is serialized and written on the connection's own thread, one hand-off after the
 * state machine applied it and no second one for the write (a write from any other thread is queued
 * to the event loop and wakes it again). Off an event loop (a test, the CLI's client) the common pool.
 */
final class EventLoops {
    private EventLoops() {
    }

    /** The executor the calling thread's work should come back to. */
    static Executor current() {
        Executor loop = ThreadExecutorMap.currentExecutor();
        return loop != null ? loop : ForkJoinPool.commonPool();
    }
}
