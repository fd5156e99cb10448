package io.regina.queue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The failed-jobs table, indexed so that the newest page, a queue's newest page and the counts
 * never scan: rows are keyed by their time-ordered uuid, globally and per queue. Text is searched
 * through a word index ({@link FailedJobIndex}) that every add and remove keeps up to date, so it is
 * built again from the rows when a snapshot loads. Readers see it as {@link FailedJobs}; only the
 * domain's handlers change it.
 *
 * <p>The index may lag the rows ({@link #deferIndexing}): each add and remove is then queued, in the
 * order applied, and {@link #catchUp} hands them to the index later, a bounded number at a time, so
 * that cutting a million rows into words need not happen inside the applies that add them. The index
 * receives the same changes in the same order either way, so it is the same on every node whenever it
 * has caught up; a text read while it lags is refused ({@link IndexBehind}) rather than answered from
 * part of the rows.
 */
public final class FailedJobTable implements FailedJobs {

    /** One change the index has still to make: the row added, or removed. */
    private record Change(FailedJob job, boolean added) { }

    private final TreeMap<String, FailedJob> rows = new TreeMap<>();
    private final Map<String, TreeMap<String, FailedJob>> byQueue = new HashMap<>();
    private final FailedJobIndex index = new FailedJobIndex();
    private final ArrayDeque<Change> behind = new ArrayDeque<>();
    private boolean deferring;

    FailedJobTable() {
    }

    void add(FailedJob job) {
        remove(job.uuid());
        rows.put(job.uuid(), job);
        byQueue.computeIfAbsent(job.queue(), q -> new TreeMap<>()).put(job.uuid(), job);
        change(job, true);
    }

    /** From now on, the index's changes wait for {@link #catchUp} instead of being made at once. */
    void deferIndexing() {
        deferring = true;
    }

    /** How many changes the index has still to make. */
    int indexBehind() {
        return behind.size();
    }

    /** Makes up to {@code max} of the changes the index has still to make, oldest first; whether some are left. */
    boolean catchUp(int max) {
        for (int i = 0; i < max && !behind.isEmpty(); i++) {
            make(behind.poll());
        }
        return !behind.isEmpty();
    }

    private void change(FailedJob job, boolean added) {
        if (deferring) {
            behind.add(new Change(job, added));
        } else {
            make(new Change(job, added));
        }
    }

    private void make(Change change) {
        if (change.added()) {
            index.add(change.job());
        } else {
            index.remove(change.job());
        }
    }

    /** Every text read goes through the index: it must have caught up, or the answer would miss rows. */
    private FailedJobIndex index() {
        if (!behind.isEmpty()) {
            throw new IndexBehind(behind.size());
        }
        return index;
    }

    FailedJob remove(String uuid) {
        FailedJob job = rows.remove(uuid);
        if (job != null) {
            TreeMap<String, FailedJob> queueRows = byQueue.get(job.queue());
            queueRows.remove(uuid);
            if (queueRows.isEmpty()) {
                byQueue.remove(job.queue());
            }
            change(job, false);
        }
        return job;
    }

    @Override
    public FailedJob get(String uuid) {
        return rows.get(uuid);
    }

    @Override
    public long size() {
        return rows.size();
    }

    @Override
    public long size(String queue) {
        TreeMap<String, FailedJob> queueRows = byQueue.get(queue);
        return queueRows == null ? 0 : queueRows.size();
    }

    @Override
    public long indexBytes() {
        return index.bytes();
    }

    Collection<FailedJob> all() {
        return rows.values();
    }

    /** Every row, or a queue's rows, oldest first. */
    Collection<FailedJob> oldestFirst(String queue) {
        if (queue == null) {
            return rows.values();
        }
        TreeMap<String, FailedJob> queueRows = byQueue.get(queue);
        return queueRows == null ? List.of() : queueRows.values();
    }

    List<String> uuidsOfQueue(String queue) {
        TreeMap<String, FailedJob> queueRows = byQueue.get(queue);
        return queueRows == null ? List.of() : new ArrayList<>(queueRows.keySet());
    }

    @Override
    public Page list(String queue, String text, long from, long to, int limit, String cursor) {
        if (text != null) {
            return FailedJobSearch.search(step -> step.apply(this), queue, text, from, to, limit, cursor);
        }
        NavigableMap<String, FailedJob> range = range(queue, from, to);
        NavigableMap<String, FailedJob> descending = range.descendingMap();
        if (cursor != null && !cursor.isEmpty()) {
            descending = descending.tailMap(cursor, false);
        }
        List<FailedJob> items = new ArrayList<>();
        String next = null;
        for (FailedJob job : descending.values()) {
            if (items.size() == limit) {
                next = items.get(items.size() - 1).uuid();
                break;
            }
            items.add(job);
        }
        return new Page(items, next, count(queue, null, from, to));
    }

    @Override
    public Scan scan(String queue, String text, long from, long to, String after, int maxRows, int maxMatches) {
        if (text != null) {
            return index().scan(query(queue, text, from, to), after, true, maxRows, maxMatches);
        }
        NavigableMap<String, FailedJob> descending = range(queue, from, to).descendingMap();
        if (after != null) {
            descending = descending.tailMap(after, false);
        }
        List<FailedJob> matches = new ArrayList<>();
        int scanned = 0;
        String last = after;
        for (FailedJob job : descending.values()) {
            if (scanned == maxRows || matches.size() == maxMatches) {
                return new Scan(matches, scanned, last, false);
            }
            scanned++;
            last = job.uuid();
            matches.add(job);
        }
        return new Scan(matches, scanned, last, true);
    }

    /** Up to {@code limit} uuids matching the filter, oldest first. */
    List<String> select(String queue, String text, long from, long to, int limit) {
        List<String> uuids = new ArrayList<>();
        if (text != null) {
            index().scan(query(queue, text, from, to), null, false, Integer.MAX_VALUE, limit).matches()
                    .forEach(job -> uuids.add(job.uuid()));
            return uuids;
        }
        for (FailedJob job : range(queue, from, to).values()) {
            if (uuids.size() == limit) {
                break;
            }
            uuids.add(job.uuid());
        }
        return uuids;
    }

    /**
     * Up to {@code limit} uuids of rows whose error or payload contains {@code text} as written (null
     * or empty: every row), oldest first: how a {@link FailedJobSelector.Filter} of an old log entry
     * chose its rows, and so how it still does. It scans the range, but only entries written before
     * the search matched whole words carry such a filter.
     */
    List<String> selectContaining(String queue, String text, long from, long to, int limit) {
        List<String> uuids = new ArrayList<>();
        for (FailedJob job : range(queue, from, to).values()) {
            if (uuids.size() == limit) {
                break;
            }
            if (contains(job, text)) {
                uuids.add(job.uuid());
            }
        }
        return uuids;
    }

    /** The rows {@link #selectContaining} would choose without a limit. */
    long countContaining(String queue, String text, long from, long to) {
        long count = 0;
        for (FailedJob job : range(queue, from, to).values()) {
            if (contains(job, text)) {
                count++;
            }
        }
        return count;
    }

    private static boolean contains(FailedJob job, String text) {
        if (text == null || text.isEmpty()) {
            return true;
        }
        return (job.error() != null && job.error().contains(text))
                || (job.data() != null && job.data().contains(text));
    }

    long count(String queue, String text, long from, long to) {
        if (text != null) {
            return index().count(query(queue, text, from, to));
        }
        return from == 0 && to == 0 ? (queue == null ? size() : size(queue)) : range(queue, from, to).size();
    }

    private static FailedJobIndex.Query query(String queue, String text, long from, long to) {
        return new FailedJobIndex.Query(FailedJobWords.query(text), queue, from, to);
    }

    private NavigableMap<String, FailedJob> range(String queue, long from, long to) {
        NavigableMap<String, FailedJob> base = queue == null ? rows : byQueue.getOrDefault(queue, new TreeMap<>());
        String low = from > 0 ? new UUID(from << 16, 0L).toString() : null;
        String high = to > 0 ? new UUID((to << 16) | 0xFFFFL, -1L).toString() : null;
        if (low != null && high != null) {
            return low.compareTo(high) > 0 ? new TreeMap<>() : base.subMap(low, true, high, true);
        }
        if (low != null) {
            return base.tailMap(low, true);
        }
        if (high != null) {
            return base.headMap(high, true);
        }
        return base;
    }

    void clear() {
        rows.clear();
        byQueue.clear();
        index.clear();
        behind.clear();
    }
}
