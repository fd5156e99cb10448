package io.regina.dashboard;

/**
 * The port through which the dashboard reads this node's cumulative message counters
 * ({@code regina.messages.pushed/popped/acked}); the wiring backs it with Micrometer.
 */
public interface MessageCounters {

    Counts read();

    /** Cumulative counts since the node started. */
    record Counts(double pushed, double popped, double acked) { }
}
