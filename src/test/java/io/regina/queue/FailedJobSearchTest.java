package io.regina.queue;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link FailedJobSearch} over a table of made-up rows, one millisecond apart, through a reader that
 * counts its reads and the entries each read looks at: the answers are a single scan's, in reads of at
 * most {@link FailedJobSearch#STEP_ROWS} entries.
 */
class FailedJobSearchTest {

    private static final long T0 = 1_767_225_600_000L;

    private final FailedJobTable table = new FailedJobTable();
    private final CountingReader reader = new CountingReader();
    private int rows;

    /** Adds the next row, one millisecond newer than the last; it matches "needle" when asked to. */
    private FailedJob add(String queue, boolean needle) {
        int n = rows++;
        FailedJob row = new FailedJob(Ids.timeOrdered(T0 + n, "row-" + n), queue, "Default", "p", "g", "m" + n, "t" + n,
                null, needle ? "{\"n\":\"needle\"}" : "{}", needle ? "needle in the error" : "hay", 1, null, T0, T0 + n,
                null);
        table.add(row);
        return row;
    }

    private List<FailedJob> addRows(int count, Predicate<Integer> needle) {
        List<FailedJob> added = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            added.add(add("q", needle.test(i)));
        }
        return added;
    }

    /** The rows that match "needle", newest first: what every search below must answer. */
    private static List<String> newestFirstNeedles(List<FailedJob> rows) {
        List<String> uuids = new ArrayList<>();
        for (int i = rows.size() - 1; i >= 0; i--) {
            if (rows.get(i).error().contains("needle")) {
                uuids.add(rows.get(i).uuid());
            }
        }
        return uuids;
    }

    private FailedJobs.Page page(String text, long from, int limit, String cursor) {
        return FailedJobSearch.page(reader, null, text, from, 0, limit, cursor);
    }

    @Test
    void aMatchInTheOldestRowIsFoundWithoutLookingAtTheOtherRows() {
        List<FailedJob> all = addRows(25_000, i -> i == 0);

        FailedJobs.Page page = page("needle", 0, 50, null);

        assertThat(page.items()).containsExactly(all.get(0));
        assertThat(page.nextCursor()).isNull();
        assertThat(page.total()).isEqualTo(1);
        assertThat(reader.mostRowsInOneRead).isEqualTo(1);
        assertThat(reader.reads).as("one step for the page, one for its count").isEqualTo(2);
    }

    @Test
    void pagesAcrossStepBoundariesAreNewestFirstWithNothingSkippedOrRepeated() {
        List<FailedJob> all = addRows(30_000, i -> i % 3 == 0);
        List<String> expected = newestFirstNeedles(all);

        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            FailedJobs.Page page = page("needle", 0, 999, cursor);
            assertThat(page.total()).isEqualTo(expected.size());
            assertThat(page.items()).hasSizeLessThanOrEqualTo(999);
            page.items().forEach(row -> seen.add(row.uuid()));
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null);

        assertThat(seen).isEqualTo(expected);
        assertThat(pages).isEqualTo((expected.size() + 998) / 999);
        assertThat(reader.mostRowsInOneRead).isLessThanOrEqualTo(FailedJobSearch.STEP_ROWS);
    }

    @Test
    void rowsFailingDuringASearchNeitherShiftNorRepeatItsPages() {
        List<FailedJob> all = addRows(24_000, i -> i % 2 == 0);
        List<String> expected = newestFirstNeedles(all);
        reader.beforeEachRead = () -> add("q", true);

        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            FailedJobs.Page page = page("needle", 0, 5_000, cursor);
            page.items().forEach(row -> seen.add(row.uuid()));
            cursor = page.nextCursor();
        } while (cursor != null);

        // The first read already saw the first newer row; later ones resume below the older rows.
        assertThat(seen).hasSize(new HashSet<>(seen).size());
        assertThat(seen.subList(1, seen.size())).isEqualTo(expected);
    }

    @Test
    void totalsAreExactHoweverManyRowsMatchCountedInBoundedReads() {
        List<FailedJob> all = addRows(250_000, i -> i % 2 == 0 || i == 150_001);

        FailedJobs.Page page = page("needle", 0, 50, null);
        assertThat(page.total()).isEqualTo(125_001);
        assertThat(page.items()).hasSize(50);
        assertThat(reader.mostRowsInOneRead).isEqualTo(FailedJobSearch.STEP_ROWS);

        FailedJobs.Page narrowed = page("needle", T0 + 150_000, 50, null);
        assertThat(narrowed.total()).isEqualTo(50_001);
        assertThat(page("needle", T0 + 249_999, 50, null).items()).as("the newest row is no needle").isEmpty();
        assertThat(page("needle", T0 + 249_998, 50, null).items()).containsExactly(all.get(249_998));
    }

    @Test
    void withoutTextAPageIsOneRead() {
        List<FailedJob> all = addRows(25_000, i -> false);

        FailedJobs.Page page = page(null, 0, 2, null);

        assertThat(page.items()).containsExactly(all.get(24_999), all.get(24_998));
        assertThat(page.total()).isEqualTo(25_000);
        assertThat(page.nextCursor()).isEqualTo(all.get(24_998).uuid());
        assertThat(reader.reads).isEqualTo(1);
    }

    @Test
    void uuidsAreTheNewestMatchesUpToTheLimitInBoundedReads() {
        List<FailedJob> all = addRows(25_000, i -> i % 2 == 1);
        List<String> expected = newestFirstNeedles(all);

        assertThat(FailedJobSearch.uuids(reader, null, "needle", 0, 0, 12_345))
                .isEqualTo(expected.subList(0, 12_345));
        assertThat(FailedJobSearch.uuids(reader, null, "needle", 0, 0, Long.MAX_VALUE)).isEqualTo(expected);
        assertThat(FailedJobSearch.uuids(reader, "other", "needle", 0, 0, Long.MAX_VALUE)).isEmpty();
        assertThat(FailedJobSearch.uuids(reader, null, null, 0, T0 + 2, 10)).containsExactly(all.get(2).uuid(),
                all.get(1).uuid(), all.get(0).uuid());
        assertThat(reader.mostRowsInOneRead).isLessThanOrEqualTo(FailedJobSearch.STEP_ROWS);
    }

    /**
     * Hands each query a view whose failed-jobs table counts the rows a read looks at, and refuses a
     * text search inside one read: this reader holds no lock, but the search must act as if it did.
     */
    private final class CountingReader implements FailedJobSearch.Reader {
        int reads;
        int rowsThisRead;
        int mostRowsInOneRead;
        Runnable beforeEachRead = () -> { };

        private final FailedJobs counted = new FailedJobs() {
            @Override
            public FailedJob get(String uuid) {
                return table.get(uuid);
            }

            @Override
            public long size() {
                return table.size();
            }

            @Override
            public long size(String queue) {
                return table.size(queue);
            }

            @Override
            public long indexBytes() {
                return table.indexBytes();
            }

            @Override
            public Page list(String queue, String text, long from, long to, int limit, String cursor) {
                assertThat(text).as("a text search scans in one read").isNull();
                return table.list(queue, null, from, to, limit, cursor);
            }

            @Override
            public Scan scan(String queue, String text, long from, long to, String after, int maxRows,
                             int maxMatches) {
                Scan scan = table.scan(queue, text, from, to, after, maxRows, maxMatches);
                rowsThisRead += scan.scanned();
                return scan;
            }
        };

        private final BrokerView view = (BrokerView) Proxy.newProxyInstance(BrokerView.class.getClassLoader(),
                new Class<?>[] {BrokerView.class}, (proxy, method, args) -> {
                    if (method.getName().equals("failedJobs")) {
                        return counted;
                    }
                    throw new UnsupportedOperationException("the search read " + method.getName());
                });

        @Override
        public <T> T read(Function<BrokerView, T> query) {
            beforeEachRead.run();
            reads++;
            rowsThisRead = 0;
            T answer = query.apply(view);
            mostRowsInOneRead = Math.max(mostRowsInOneRead, rowsThisRead);
            return answer;
        }
    }
}
