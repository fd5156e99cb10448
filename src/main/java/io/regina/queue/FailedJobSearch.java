package io.regina.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The failed-jobs text search, run as many short reads instead of one long one: each step scans at
 * most {@link #STEP_ROWS} rows and resumes after the last row it looked at, so applies (pushes, acks)
 * interleave with a search of a million rows. The answer is the one a single scan would give, except
 * that rows added or removed between steps may or may not be seen; the table is keyed by time-ordered
 * uuids, so a step resumes at the right place whatever changed before it.
 */
public final class FailedJobSearch {

    static final int STEP_ROWS = 10_000;

    /** Runs a query against one consistent view, as {@link CommandBus#read} does: pass {@code bus::read}. */
    @FunctionalInterface
    public interface Reader {
        <T> T read(Function<BrokerView, T> query);
    }

    /** Runs one scan step against the table and answers it. */
    @FunctionalInterface
    interface Steps {
        FailedJobs.Scan run(Function<FailedJobs, FailedJobs.Scan> step);
    }

    private FailedJobSearch() {
    }

    /** {@link FailedJobs#list}, with a text search cut into bounded reads; without text, one read. */
    public static FailedJobs.Page page(Reader reader, String queue, String text, long from, long to, int limit,
                                       String cursor) {
        if (text == null) {
            return reader.read(view -> view.failedJobs().list(queue, null, from, to, limit, cursor));
        }
        return search(steps(reader), queue, text, from, to, limit, cursor);
    }

    /**
     * The uuids of up to {@code limit} rows matching the filter ({@code text} may be null), newest
     * first, read in bounded steps: the rows a bulk operation over a search then acts on one by one.
     */
    public static List<String> uuids(Reader reader, String queue, String text, long from, long to, long limit) {
        Steps steps = steps(reader);
        List<String> uuids = new ArrayList<>();
        String after = null;
        while (uuids.size() < limit) {
            String resume = after;
            int wanted = (int) Math.min(STEP_ROWS, limit - uuids.size());
            FailedJobs.Scan step = steps.run(t -> t.scan(queue, text, from, to, resume, STEP_ROWS, wanted));
            step.matches().forEach(job -> uuids.add(job.uuid()));
            if (step.exhausted()) {
                break;
            }
            after = step.last();
        }
        return uuids;
    }

    private static Steps steps(Reader reader) {
        return step -> reader.read(view -> step.apply(view.failedJobs()));
    }

    /**
     * Up to {@code limit} matches newest first after {@code cursor}, looking at no more than
     * {@link FailedJobs#TEXT_SCAN_LIMIT} rows for the page and as many for the total.
     */
    static FailedJobs.Page search(Steps steps, String queue, String text, long from, long to, int limit,
                                  String cursor) {
        List<FailedJob> items = new ArrayList<>();
        String next = null;
        boolean truncated = false;
        String after = cursor == null || cursor.isEmpty() ? null : cursor;
        int scanned = 0;
        while (true) {
            if (scanned == FailedJobs.TEXT_SCAN_LIMIT) {
                String resume = after;
                FailedJobs.Scan probe = steps.run(t -> t.scan(queue, text, from, to, resume, 1, 1));
                if (probe.scanned() > 0) {
                    truncated = true;
                    next = items.isEmpty() ? probe.last() : items.get(items.size() - 1).uuid();
                }
                break;
            }
            String resume = after;
            int rows = Math.min(STEP_ROWS, FailedJobs.TEXT_SCAN_LIMIT - scanned);
            int wanted = limit + 1 - items.size();
            FailedJobs.Scan step = steps.run(t -> t.scan(queue, text, from, to, resume, rows, wanted));
            scanned += step.scanned();
            for (FailedJob match : step.matches()) {
                if (items.size() == limit) {
                    next = items.get(items.size() - 1).uuid();
                    break;
                }
                items.add(match);
            }
            if (next != null || step.exhausted()) {
                break;
            }
            after = step.last();
        }
        long total = count(steps, queue, text, from, to);
        boolean exact = total >= 0;
        if (!exact) {
            total = items.size();
            truncated = true;
        }
        return new FailedJobs.Page(items, next, total, exact, truncated);
    }

    /** The matches in the whole range, or -1 when it holds more than the scan limit of rows. */
    private static long count(Steps steps, String queue, String text, long from, long to) {
        long count = 0;
        int scanned = 0;
        String after = null;
        while (true) {
            String resume = after;
            int rows = Math.min(STEP_ROWS, FailedJobs.TEXT_SCAN_LIMIT + 1 - scanned);
            FailedJobs.Scan step = steps.run(t -> t.scan(queue, text, from, to, resume, rows, Integer.MAX_VALUE));
            scanned += step.scanned();
            if (scanned > FailedJobs.TEXT_SCAN_LIMIT) {
                return -1;
            }
            count += step.matches().size();
            if (step.exhausted()) {
                return count;
            }
            after = step.last();
        }
    }
}
