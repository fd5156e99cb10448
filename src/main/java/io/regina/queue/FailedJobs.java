package io.regina.queue;

import java.util.List;

/**
 * The failed-jobs table as readers see it: lookups, counts, pages and bounded scans, nothing that
 * changes it. A text search reads through {@link FailedJobSearch}, which scans in bounded steps.
 */
public interface FailedJobs {

    /** Text search looks at no more than this many rows per request, and says when it stopped. */
    int TEXT_SCAN_LIMIT = 200_000;

    /** One page of rows, newest first, with the cursor of the next page (null at the end). */
    record Page(List<FailedJob> items, String nextCursor, long total, boolean totalExact, boolean scanTruncated) {
    }

    /**
     * One bounded step of a scan, newest first: the rows it matched, how many rows it looked at, the
     * uuid of the last one (where the next step resumes) and whether it reached the end of the range.
     */
    record Scan(List<FailedJob> matches, int scanned, String last, boolean exhausted) {
    }

    FailedJob get(String uuid);

    long size();

    long size(String queue);

    /**
     * Rows matching the filter, newest first, starting after {@code cursor}. {@code from}/{@code to}
     * are inclusive epoch-ms bounds on failedAt (0 for open); {@code text} matches error or payload and
     * scans up to {@link #TEXT_SCAN_LIMIT} rows inside this one read, so a reader that holds the state's
     * lock searches text with {@link FailedJobSearch} instead.
     */
    Page list(String queue, String text, long from, long to, int limit, String cursor);

    /**
     * Looks at rows of the filter newest first after {@code after} (null: from the newest) and stops
     * after {@code maxRows} rows or {@code maxMatches} matches, whichever comes first.
     */
    Scan scan(String queue, String text, long from, long to, String after, int maxRows, int maxMatches);
}
