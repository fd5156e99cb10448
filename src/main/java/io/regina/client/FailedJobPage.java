package io.regina.client;

import java.util.List;

/** A page of failed jobs, newest first; {@code nextCursor} null on the last page. */
public record FailedJobPage(List<FailedJob> items, String nextCursor, long total) {

    public FailedJobPage {
        items = items == null ? List.of() : List.copyOf(items);
    }
}
