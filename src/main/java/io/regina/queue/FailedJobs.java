package io.regina.queue;

import java.util.List;

/**
 * The failed-jobs table as readers see it: lookups, counts, pages and bounded scans, nothing that
 * changes it. A text search reads through {@link FailedJobSearch}, which scans in bounded steps.
 *
 * <p>A text search matches whole words ({@link FailedJobWords}): a row matches when its error or
 * payload holds every word of the text. It walks the word index, not the rows, so it finds every
 * match however many rows there are.
 */
public interface FailedJobs {

    /**
     * Rows one bulk retry, forget or flush command takes, its callers sending one after another until
     * none match: about a millisecond of apply at a million rows, so pops and pushes on other queues
     * wait at most that long behind it. A retry or forget of listed ids is one command of up to
     * {@link #MAX_IDS}.
     */
    int BULK_STEP = 2_000;

    /** The most uuids one retry or forget of listed rows may name. */
    int MAX_IDS = 10_000;

    /** One page of rows, newest first, with the cursor of the next page (null at the end) and the exact total. */
    record Page(List<FailedJob> items, String nextCursor, long total) {
    }

    /**
     * One bounded step of a scan, newest first: the rows it matched, how many entries it looked at
     * (rows, or with text entries of the word index), the uuid of the last one (where the next step
     * resumes) and whether it reached the end of the range.
     */
    record Scan(List<FailedJob> matches, int scanned, String last, boolean exhausted) {
    }

    /**
     * A text read found the word index behind the rows ({@link FailedJobTable#deferIndexing}): it would
     * have missed rows, so it answers nothing. Whoever holds the state catches the index up and reads again.
     */
    final class IndexBehind extends IllegalStateException {
        public IndexBehind(int changes) {
            super("the failed-jobs word index is " + changes + " changes behind the rows: catch it up, then "
                    + "read again");
        }
    }

    FailedJob get(String uuid);

    long size();

    long size(String queue);

    /** An estimate of the heap the word index holds, in bytes, the rows themselves not counted. */
    long indexBytes();

    /**
     * Rows matching the filter, newest first, starting after {@code cursor}. {@code from}/{@code to}
     * are inclusive epoch-ms bounds on failedAt (0 for open); {@code text} matches words of the error or
     * payload and is counted inside this one read, so a reader that holds the state's lock searches
     * text with {@link FailedJobSearch} instead.
     */
    Page list(String queue, String text, long from, long to, int limit, String cursor);

    /**
     * Looks at rows of the filter newest first after {@code after} (null: from the newest) and stops
     * after {@code maxRows} rows or {@code maxMatches} matches, whichever comes first.
     */
    Scan scan(String queue, String text, long from, long to, String after, int maxRows, int maxMatches);
}
