package io.regina.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The failed-jobs text search, run as many short reads instead of one long one: each step looks at
 * most {@link #STEP_ROWS} entries of the word index and resumes after the last one it looked at, so
 * applies (pushes, acks) interleave with a search whose words occur in a million rows. Every match is
 * found and counted; rows added or removed between steps may or may not be seen, and the index is
 * ordered by time-ordered uuids, so a step resumes at the right place whatever changed before it.
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

    /** Up to {@code limit} matches newest first after {@code cursor}, and the number of all matches. */
    static FailedJobs.Page search(Steps steps, String queue, String text, long from, long to, int limit,
                                  String cursor) {
        List<FailedJob> items = new ArrayList<>();
        String next = null;
        String after = cursor == null || cursor.isEmpty() ? null : cursor;
        while (true) {
            String resume = after;
            int wanted = limit + 1 - items.size();
            FailedJobs.Scan step = steps.run(t -> t.scan(queue, text, from, to, resume, STEP_ROWS, wanted));
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
        return new FailedJobs.Page(items, next, count(steps, queue, text, from, to));
    }

    /** The matches in the whole range. */
    private static long count(Steps steps, String queue, String text, long from, long to) {
        long count = 0;
        String after = null;
        while (true) {
            String resume = after;
            FailedJobs.Scan step = steps.run(t -> t.scan(queue, text, from, to, resume, STEP_ROWS, Integer.MAX_VALUE));
            count += step.matches().size();
            if (step.exhausted()) {
                return count;
            }
            after = step.last();
        }
    }
}
