package io.regina.queue;

import java.util.List;

/** Which failed jobs a bulk operation touches: exactly one of these per request. */
public sealed interface FailedJobSelector {

    record Ids(List<String> uuids) implements FailedJobSelector { }

    record All() implements FailedJobSelector { }

    /**
     * Rows matching every given criterion, {@code text} by whole words as the search finds them
     * ({@link FailedJobWords}): what "retry all N matching" of a search sends. {@code queue} and
     * {@code text} may be null, {@code from} and {@code to} are epoch-ms bounds on failedAt (0 for open).
     */
    record Search(String queue, String text, long from, long to) implements FailedJobSelector { }

    /**
     * The criteria of {@link Search} with {@code text} as a case-sensitive substring of the error or
     * the payload (empty matches every row). Log entries written before the search matched whole words
     * carry this selector, and are applied as they were when they were acknowledged, so that a replayed
     * entry retries the same rows on every node; nothing new sends it.
     */
    record Filter(String queue, String text, long from, long to) implements FailedJobSelector { }
}
