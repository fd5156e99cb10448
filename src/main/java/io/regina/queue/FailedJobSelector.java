package io.regina.queue;

import java.util.List;

/** Which failed jobs a bulk operation touches: exactly one of these per request. */
public sealed interface FailedJobSelector {

    record Ids(List<String> uuids) implements FailedJobSelector { }

    record All() implements FailedJobSelector { }

    /**
     * Rows matching every given criterion: {@code queue} and {@code text} may be null, {@code from} and
     * {@code to} are epoch-ms bounds on failedAt (0 for open).
     */
    record Filter(String queue, String text, long from, long to) implements FailedJobSelector { }
}
