package io.regina.queue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.ToLongFunction;

/**
 * The failed-jobs word index: a word maps to the rows that hold it in their error or payload
 * ({@link FailedJobWords}), as a posting list of row numbers in uuid order (newest last); a queue maps
 * to its rows the same way, so a queue filter is one more list to intersect.
 *
 * <p>A row is cut into words once, when it is added; it keeps the lists it is in, so removing it
 * only marks it dead and counts one dead entry in each. A list drops its dead entries once they are
 * half of it, so a removal costs a constant amortized time and no step ever rewrites more than one
 * list. A row's number is reused once no list holds it any more. Everything here follows from the
 * order in which rows were added and removed, so the index is the same on every replica and is
 * rebuilt from the rows when a snapshot loads.
 *
 * <p>A word in one row only (an order number, an id) has no list: it is filed by its hash in
 * {@link FailedJobOneRowWords}, and the row keeps the hashes it filed, to take them out when it goes.
 * A row found there is checked against its own words, so only a row holding the word is ever found. The
 * word's second row makes it a list of both; its hash stays filed under the first row until that row
 * goes (another word of that row may have the same hash and share the entry).
 */
final class FailedJobIndex {

    /** Rows of the failed-jobs table, found by all of their words, in one queue or any, in a time range. */
    record Query(List<String> words, String queue, long from, long to) { }

    /** One list: the row numbers holding a word, ordered by their rows' uuids; some entries dead. */
    private final class Postings {
        final String key;
        int[] rows = new int[1];
        int size;
        int dead;
        /** The {@link #adds} count of the last row added, so that a word twice in a row is listed once. */
        long lastAdd = -1;

        Postings(String key) {
            this.key = key;
        }

        /** A list of one row that is in no map: a one-row word as a search takes it. */
        Postings(String key, int row) {
            this(key);
            rows[0] = row;
            size = 1;
        }

        void add(int row) {
            if (size == rows.length) {
                bytes += 4L * rows.length;
                rows = Arrays.copyOf(rows, rows.length * 2);
            }
            int at = insertionPoint(row);
            System.arraycopy(rows, at, rows, at + 1, size - at);
            rows[at] = row;
            size++;
        }

        /**
         * Where a new row goes: after every row that sorts before it. Rows arrive in uuid order across
         * milliseconds but in hash order within one, and one apply (a dead-letter ack of 1,000 items)
         * fails all its rows in the same millisecond: the search gallops back from the end and then
         * bisects, so a row lands among the rows of its millisecond in O(log n) comparisons, not n.
         */
        int insertionPoint(int row) {
            int high = size;
            int step = 1;
            while (high > 0 && before(row, rows[high - 1])) {
                int low = Math.max(0, high - step);
                if (low == 0 || !before(row, rows[low])) {
                    return bisect(row, low, high - 1);
                }
                high = low;
                step <<= 1;
            }
            return high;
        }

        /** The first position in {@code [low, high]} whose row sorts after {@code row}; {@code rows[high]} does. */
        private int bisect(int row, int low, int high) {
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (before(row, rows[mid])) {
                    high = mid;
                } else {
                    low = mid + 1;
                }
            }
            return low;
        }

        /** The first position whose row sorts at or after the given uuid. */
        int lowerBound(long msb, long lsb) {
            int low = 0;
            int high = size;
            while (low < high) {
                int mid = (low + high) >>> 1;
                if (compare(rows[mid], msb, lsb) < 0) {
                    low = mid + 1;
                } else {
                    high = mid;
                }
            }
            return low;
        }

        boolean holds(int row) {
            for (int at = lowerBound(msbs[row], lsbs[row]); at < size && !before(row, rows[at]); at++) {
                if (rows[at] == row) {
                    return true;
                }
            }
            return false;
        }

        void dropDead() {
            int kept = 0;
            for (int i = 0; i < size; i++) {
                int row = rows[i];
                if (jobs[row] != null) {
                    rows[kept++] = row;
                } else if (--pins[row] == 0) {
                    free(row);
                }
            }
            Arrays.fill(rows, kept, size, 0);
            size = kept;
            dead = 0;
            if (size == 0) {
                lists.remove(key);
                bytes -= listBytes(key) + 4L * rows.length;
            } else if (size * 4 < rows.length) {
                int capacity = Math.max(1, Integer.highestOneBit(size) * 2);
                bytes -= 4L * (rows.length - capacity);
                rows = Arrays.copyOf(rows, capacity);
            }
        }
    }

    private static final String QUEUE_KEY = "\u0000queue\u0000";
    private static final Postings[] NONE = new Postings[0];

    private final Map<String, Postings> lists = new HashMap<>();
    private final FailedJobOneRowWords ones = new FailedJobOneRowWords();
    /** {@link FailedJobOneRowWords#hash}; tests give one that collides. */
    private final ToLongFunction<String> hash;
    private FailedJob[] jobs = new FailedJob[16];
    private long[] msbs = new long[16];
    private long[] lsbs = new long[16];
    /** How many lists still hold each row number: it is free again at zero. */
    private int[] pins = new int[16];
    private Postings[][] listsOf = new Postings[16][];
    /** The hashes each row filed in {@link #ones}; null for none. */
    private long[][] onesOf = new long[16][];
    private int[] free = new int[16];
    private int freeCount;
    private int used;
    private long bytes = slotBytes(16);
    private long adds;
    /** The lists of the row being added (only the apply thread adds). */
    private Postings[] adding = new Postings[64];
    private int addingCount;
    private long[] addingOnes = new long[16];
    private int addingOnesCount;

    FailedJobIndex() {
        this(FailedJobOneRowWords::hash);
    }

    FailedJobIndex(ToLongFunction<String> hash) {
        this.hash = hash;
    }

    void add(FailedJob job) {
        int row = allocate();
        UUID uuid = UUID.fromString(job.uuid());
        jobs[row] = job;
        msbs[row] = uuid.getMostSignificantBits();
        lsbs[row] = uuid.getLeastSignificantBits();
        adds++;
        addingCount = 0;
        addingOnesCount = 0;
        hold(row, list(QUEUE_KEY + job.queue()));
        FailedJobWords.indexed(job.error(), word -> holdWord(row, word));
        FailedJobWords.indexed(job.data(), word -> holdWord(row, word));
        Postings[] holding = Arrays.copyOf(adding, addingCount);
        Arrays.fill(adding, 0, addingCount, null);
        pins[row] = holding.length;
        listsOf[row] = holding;
        bytes += arrayBytes(holding.length);
        if (addingOnesCount > 0) {
            onesOf[row] = Arrays.copyOf(addingOnes, addingOnesCount);
            bytes += longArrayBytes(addingOnesCount);
        }
    }

    /** Files the row under a word: in the word's list, or by hash when no other row holds the word. */
    private void holdWord(int row, String word) {
        Postings postings = lists.get(word);
        if (postings == null) {
            long filed = hash.applyAsLong(word);
            int holder = ones.find(filed, other -> other != row && holdsWord(other, word));
            if (holder < 0) {
                // This row's entry under the hash, if any, is this word's or one of the same hash: shared.
                if (ones.find(filed, other -> other == row) == row) {
                    return;
                }
                ones.add(filed, row);
                if (addingOnesCount == addingOnes.length) {
                    addingOnes = Arrays.copyOf(addingOnes, addingOnesCount * 2);
                }
                addingOnes[addingOnesCount++] = filed;
                return;
            }
            postings = list(word);
            postings.add(holder);
            Postings[] of = listsOf[holder];
            listsOf[holder] = Arrays.copyOf(of, of.length + 1);
            listsOf[holder][of.length] = postings;
            pins[holder]++;
            bytes += arrayBytes(of.length + 1) - arrayBytes(of.length);
        }
        hold(row, postings);
    }

    private boolean holdsWord(int row, String word) {
        FailedJob job = jobs[row];
        return FailedJobWords.holds(job.error(), word) || FailedJobWords.holds(job.data(), word);
    }

    private void hold(int row, Postings postings) {
        if (postings.lastAdd == adds) {
            return;
        }
        postings.lastAdd = adds;
        postings.add(row);
        if (addingCount == adding.length) {
            adding = Arrays.copyOf(adding, addingCount * 2);
        }
        adding[addingCount++] = postings;
    }

    void remove(FailedJob job) {
        Postings queue = lists.get(QUEUE_KEY + job.queue());
        UUID uuid = UUID.fromString(job.uuid());
        int at = queue.lowerBound(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits());
        // A dead row with the same uuid may sort first: the live one is the one that still has a job.
        while (jobs[queue.rows[at]] != job) {
            at++;
        }
        int row = queue.rows[at];
        Postings[] holding = listsOf[row];
        long[] filed = onesOf[row];
        if (filed != null) {
            for (long each : filed) {
                ones.remove(each, row);
            }
            onesOf[row] = null;
            bytes -= longArrayBytes(filed.length);
        }
        jobs[row] = null;
        listsOf[row] = null;
        bytes -= arrayBytes(holding.length);
        for (Postings postings : holding) {
            postings.dead++;
            if (postings.dead * 2 >= postings.size) {
                postings.dropDead();
            }
        }
    }

    void clear() {
        lists.clear();
        ones.clear();
        jobs = new FailedJob[16];
        msbs = new long[16];
        lsbs = new long[16];
        pins = new int[16];
        listsOf = new Postings[16][];
        onesOf = new long[16][];
        free = new int[16];
        freeCount = 0;
        used = 0;
        bytes = slotBytes(16);
    }

    /** An estimate of the heap the index holds, the rows themselves not counted. */
    long bytes() {
        return bytes + ones.bytes();
    }

    /**
     * Looks at the query's rows newest first ({@code newestFirst}) or oldest first, strictly past
     * {@code after} (a uuid, null from the start), and stops after looking at {@code maxRows} entries of
     * its shortest list or finding {@code maxMatches} rows.
     */
    FailedJobs.Scan scan(Query query, String after, boolean newestFirst, int maxRows, int maxMatches) {
        Postings[] wanted = lists(query);
        if (wanted.length == 0) {
            return new FailedJobs.Scan(List.of(), 0, after, true);
        }
        Postings driver = wanted[0];
        int[] range = range(driver, query, after, newestFirst);
        List<FailedJob> matches = new ArrayList<>();
        int scanned = 0;
        int lastRow = -1;
        int left = range[1] - range[0];
        for (int n = 0; n < left; n++) {
            if (scanned == maxRows || matches.size() == maxMatches) {
                return new FailedJobs.Scan(matches, scanned, uuid(lastRow, after), false);
            }
            int row = driver.rows[newestFirst ? range[1] - 1 - n : range[0] + n];
            scanned++;
            lastRow = row;
            if (matches(row, wanted)) {
                matches.add(jobs[row]);
            }
        }
        return new FailedJobs.Scan(matches, scanned, uuid(lastRow, after), true);
    }

    /** How many rows match the whole query. */
    long count(Query query) {
        Postings[] wanted = lists(query);
        if (wanted.length == 0) {
            return 0;
        }
        Postings driver = wanted[0];
        if (wanted.length == 1 && query.from() == 0 && query.to() == 0) {
            return driver.size - driver.dead;
        }
        int[] range = range(driver, query, null, true);
        long count = 0;
        for (int i = range[0]; i < range[1]; i++) {
            if (matches(driver.rows[i], wanted)) {
                count++;
            }
        }
        return count;
    }

    /** The lists of the query's words and queue, shortest first; none when a word is in no row, or there is no word. */
    private Postings[] lists(Query query) {
        if (query.words().isEmpty()) {
            return NONE;
        }
        List<String> words = query.words();
        Postings[] wanted = new Postings[words.size() + (query.queue() != null ? 1 : 0)];
        for (int i = 0; i < words.size(); i++) {
            wanted[i] = wordList(words.get(i));
            if (wanted[i] == null) {
                return NONE;
            }
        }
        if (query.queue() != null) {
            wanted[words.size()] = lists.get(QUEUE_KEY + query.queue());
            if (wanted[words.size()] == null) {
                return NONE;
            }
        }
        Arrays.sort(wanted, (a, b) -> Integer.compare(a.size, b.size));
        return wanted;
    }

    /** The positions {@code [low, high)} of the driver that the time range and {@code after} leave. */
    private int[] range(Postings driver, Query query, String after, boolean newestFirst) {
        // A uuid's top 48 bits are the millisecond it failed at: the time range is a uuid range.
        int low = query.from() > 0 ? driver.lowerBound(query.from() << 16, 0) : 0;
        int high = query.to() > 0 ? driver.lowerBound((query.to() + 1) << 16, 0) : driver.size;
        if (after != null) {
            int at = past(driver, after, newestFirst);
            if (newestFirst) {
                high = Math.min(high, at);
            } else {
                low = Math.max(low, at);
            }
        }
        return new int[] {low, Math.max(low, high)};
    }

    /**
     * The first position whose uuid sorts at or after the cursor (newest first: the walk stops before
     * it) or strictly after it (oldest first: the walk starts there). A cursor compares as a string,
     * as the table's keys do, so one that is no uuid still pages as it always did.
     */
    private int past(Postings driver, String cursor, boolean atOrAfter) {
        int low = 0;
        int high = driver.size;
        while (low < high) {
            int mid = (low + high) >>> 1;
            int order = uuid(driver.rows[mid], null).compareTo(cursor);
            if (order < 0 || (!atOrAfter && order == 0)) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** The rows holding a word: its list, or a list of the one row filed under its hash that holds it; null for none. */
    private Postings wordList(String word) {
        Postings postings = lists.get(word);
        if (postings != null) {
            return postings;
        }
        int row = ones.find(hash.applyAsLong(word), holder -> holdsWord(holder, word));
        return row < 0 ? null : new Postings(word, row);
    }

    private boolean matches(int row, Postings[] wanted) {
        if (jobs[row] == null) {
            return false;
        }
        for (int i = 1; i < wanted.length; i++) {
            if (!wanted[i].holds(row)) {
                return false;
            }
        }
        return true;
    }

    private String uuid(int row, String otherwise) {
        return row < 0 ? otherwise : new UUID(msbs[row], lsbs[row]).toString();
    }

    private int compare(int row, long msb, long lsb) {
        int byMsb = Long.compareUnsigned(msbs[row], msb);
        return byMsb != 0 ? byMsb : Long.compareUnsigned(lsbs[row], lsb);
    }

    private boolean before(int row, int other) {
        return compare(row, msbs[other], lsbs[other]) < 0;
    }

    private Postings list(String key) {
        Postings postings = lists.get(key);
        if (postings == null) {
            postings = new Postings(key);
            lists.put(key, postings);
            bytes += listBytes(key) + 4;
        }
        return postings;
    }

    private int allocate() {
        if (freeCount > 0) {
            return free[--freeCount];
        }
        if (used == jobs.length) {
            int capacity = jobs.length * 2;
            bytes += slotBytes(capacity) - slotBytes(jobs.length);
            jobs = Arrays.copyOf(jobs, capacity);
            msbs = Arrays.copyOf(msbs, capacity);
            lsbs = Arrays.copyOf(lsbs, capacity);
            pins = Arrays.copyOf(pins, capacity);
            listsOf = Arrays.copyOf(listsOf, capacity);
            onesOf = Arrays.copyOf(onesOf, capacity);
            free = Arrays.copyOf(free, capacity);
        }
        return used++;
    }

    private void free(int row) {
        free[freeCount++] = row;
    }

    /** Per row number: the job, its uuid, its pin count, its lists, its filed hashes and a free-list slot. */
    private static long slotBytes(int capacity) {
        return capacity * (4L + 8 + 8 + 4 + 4 + 4 + 4);
    }

    /** A list's object, its map entry and slot, its key and its array's header (compressed oops, Latin-1). */
    private static long listBytes(String key) {
        return 40 + 32 + 8 + 24 + arrayBytes((key.length() + 3) / 4) + 16;
    }

    private static long longArrayBytes(int slots) {
        return 16 + 8L * slots;
    }

    /** An array header and 4-byte slots, rounded up to 8 bytes. */
    private static long arrayBytes(int slots) {
        return (16 + 4L * slots + 7) & ~7L;
    }
}
