package io.regina.queue;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/** The failed-jobs word index through the table that keeps it: what a text search finds, in which order. */
class FailedJobIndexTest {

    private static final long T0 = 1_767_225_600_000L;

    private final FailedJobTable table = new FailedJobTable();
    private int rows;

    /** A row failing {@code ms} after T0, in {@code queue}, with this payload and error. */
    private FailedJob add(long ms, String queue, String data, String error) {
        int n = rows++;
        FailedJob row = new FailedJob(Ids.timeOrdered(T0 + ms, "row-" + n), queue, "Default", "p", "g", "m" + n,
                "t" + n, null, data, error, 1, null, T0, T0 + ms, null);
        table.add(row);
        return row;
    }

    private List<FailedJob> search(String queue, String text, long from, long to) {
        return table.list(queue, text, from, to, Integer.MAX_VALUE, null).items();
    }

    private List<FailedJob> search(String text) {
        return search(null, text, 0, 0);
    }

    @Test
    void wordsNumbersAndIdsMatchWholeIgnoringCase() {
        FailedJob order = add(1, "q", "{\"order\":424242,\"email\":\"ada@example.com\"}",
                "PaymentGatewayTimeout after 30 s (order 424242)");
        FailedJob other = add(2, "q", "{\"order\":4242}", "java.net.SocketTimeoutException: connect timed out");

        assertThat(search("424242")).containsExactly(order);
        assertThat(search("4242")).as("a part of a number is no word").containsExactly(other);
        assertThat(search("paymentgatewaytimeout")).containsExactly(order);
        assertThat(search("PaymentGateway")).isEmpty();
        assertThat(search("ada@example.com")).containsExactly(order);
        assertThat(search("example")).as("a compound word is found by its parts too").containsExactly(order);
        assertThat(search("ada@example.org")).isEmpty();
        assertThat(search("SocketTimeoutException")).containsExactly(other);
        assertThat(search("java.net.SocketTimeoutException.")).containsExactly(other);
        assertThat(search("order")).containsExactly(other, order);
        assertThat(search("  ,;  ")).as("no word in the text").isEmpty();
        assertThat(search("q", "  ,;  ", 0, 0)).isEmpty();
    }

    @Test
    void severalWordsMatchRowsHoldingAllOfThemCombinedWithQueueAndTime() {
        FailedJob a = add(1, "mail", "{\"to\":\"bob\"}", "smtp timeout");
        FailedJob b = add(2, "mail", "{\"to\":\"ada\"}", "smtp refused");
        FailedJob c = add(3, "sms", "{\"to\":\"bob\"}", "gateway timeout");
        FailedJob d = add(4, "mail", "{\"to\":\"bob\"}", "timeout");

        assertThat(search("timeout bob")).containsExactly(d, c, a);
        assertThat(search("bob timeout smtp")).containsExactly(a);
        assertThat(search("timeout nobody")).isEmpty();
        assertThat(search("mail", "timeout", 0, 0)).containsExactly(d, a);
        assertThat(search("mail", "smtp", T0 + 2, 0)).containsExactly(b);
        assertThat(search(null, "timeout", T0 + 2, T0 + 3)).containsExactly(c);
        assertThat(search("nowhere", "timeout", 0, 0)).isEmpty();
        assertThat(table.count("mail", "bob", 0, 0)).isEqualTo(2);
        assertThat(table.select("mail", "bob", 0, 0, 10)).as("oldest first").containsExactly(a.uuid(), d.uuid());
        assertThat(table.select(null, "timeout", 0, 0, 2)).containsExactly(a.uuid(), c.uuid());
    }

    @Test
    void rowsOfOneMillisecondAreInUuidOrderWhateverOrderTheyFailedIn() {
        List<FailedJob> earlier = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            earlier.add(add(6, "q", "{}", "earlier"));
        }
        List<FailedJob> added = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            added.add(add(7, "q", "{}", "same ms"));
        }
        List<FailedJob> newestFirst = new ArrayList<>(added);
        newestFirst.sort((x, y) -> y.uuid().compareTo(x.uuid()));

        assertThat(search("same")).containsExactlyElementsOf(newestFirst);
        List<FailedJob> paged = new ArrayList<>();
        String cursor = null;
        do {
            FailedJobs.Page page = table.list(null, "ms", 0, 0, 7, cursor);
            paged.addAll(page.items());
            assertThat(page.total()).isEqualTo(50);
            cursor = page.nextCursor();
        } while (cursor != null);
        assertThat(paged).containsExactlyElementsOf(newestFirst);
        assertThat(table.list(null, null, 0, 0, 50, null).items()).as("the same order as the listing")
                .containsExactlyElementsOf(newestFirst);
        assertThat(table.list("q", "same", 0, 0, 60, null).items()).containsExactlyElementsOf(newestFirst);
        assertThat(search("earlier")).containsExactlyInAnyOrderElementsOf(earlier);
    }

    @Test
    void aCursorThatIsNoUuidPagesByStringOrderAsTheListingDoes() {
        FailedJob a = add(1, "q", "{}", "boom");
        FailedJob b = add(2, "q", "{}", "boom");

        assertThat(table.list(null, "boom", 0, 0, 10, "zzz").items()).containsExactly(b, a);
        assertThat(table.list(null, "boom", 0, 0, 10, "0").items()).isEmpty();
        assertThat(table.list(null, "boom", 0, 0, 10, b.uuid()).items()).containsExactly(a);
        assertThat(table.list(null, null, 0, 0, 10, "zzz").items()).containsExactly(b, a);
    }

    @Test
    void removedRowsAreNeverFoundAndTheirRowNumbersAreReused() {
        Random random = new Random(12);
        List<FailedJob> live = new ArrayList<>();
        for (int step = 0; step < 20_000; step++) {
            if (!live.isEmpty() && random.nextInt(3) == 0) {
                FailedJob gone = live.remove(random.nextInt(live.size()));
                assertThat(table.remove(gone.uuid())).isSameAs(gone);
            } else {
                live.add(add(step, "q" + random.nextInt(3), "{\"k\":\"w" + random.nextInt(50) + "\"}",
                        "err " + random.nextInt(5)));
            }
            if (step % 997 == 0) {
                assertThat(search("q1", "w7 err", 0, 0)).containsExactlyElementsOf(expected(live, "q1", "w7"));
                assertThat(table.count(null, "w7", 0, 0)).isEqualTo(expected(live, null, "w7").size());
            }
        }
        long bytes = table.indexBytes();
        live.forEach(row -> table.remove(row.uuid()));
        assertThat(search("err")).isEmpty();
        assertThat(table.indexBytes()).as("empty lists are dropped").isLessThan(bytes);
        FailedJob again = add(30_000, "q1", "{\"k\":\"w7\"}", "err 1");
        assertThat(search("q1", "w7 err", 0, 0)).containsExactly(again);
    }

    private static List<FailedJob> expected(List<FailedJob> live, String queue, String word) {
        List<FailedJob> matching = new ArrayList<>();
        for (FailedJob row : live) {
            if ((queue == null || row.queue().equals(queue)) && row.data().contains("\"" + word + "\"")) {
                matching.add(row);
            }
        }
        matching.sort((x, y) -> y.uuid().compareTo(x.uuid()));
        return matching;
    }

    @Test
    void aRowReplacedUnderItsUuidIsFoundByItsNewWordsOnly() {
        FailedJob first = add(1, "q", "{}", "before");
        FailedJob replaced = new FailedJob(first.uuid(), "q", "Default", "p", "g", "m", "t", null, "{}", "after", 2,
                null, T0, T0 + 1, null);
        table.add(replaced);

        assertThat(search("before")).isEmpty();
        assertThat(search("after")).containsExactly(replaced);
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void aMillionRowsFindARowOfTheOldestTenthByItsOrderNumberOnTheFirstPage() {
        int million = 1_000_000;
        List<FailedJob> made = new ArrayList<>(million);
        for (int i = 0; i < million; i++) {
            made.add(new FailedJob(Ids.timeOrdered(T0 + i / 10, "row-" + i), "q" + (i % 4), "Default", "p", "g",
                    "m" + i, "t" + i, null, "{\"order\":" + i + ",\"customer\":\"c" + (i % 10_000) + "\"}",
                    "PaymentGatewayTimeout after 30 s (order " + i + ")", 1, null, T0, T0 + i / 10, null));
        }
        long start = System.nanoTime();
        made.forEach(table::add);
        double buildSeconds = (System.nanoTime() - start) / 1e9;
        int oldTenth = 42_424;

        long searchStart = System.nanoTime();
        FailedJobs.Page page = FailedJobSearch.page(new TableReader(), null, "order " + oldTenth, 0, 0, 50, null);
        double searchMs = (System.nanoTime() - searchStart) / 1e6;

        assertThat(page.items()).extracting(FailedJob::messageId).containsExactly("m" + oldTenth);
        assertThat(page.total()).isEqualTo(1);
        assertThat(page.nextCursor()).isNull();
        assertThat(table.count("q2", "c42", 0, 0)).isEqualTo(100);
        assertThat(table.count("q0", "c42", 0, 0)).isZero();
        assertThat(table.count(null, "PaymentGatewayTimeout", 0, 0)).isEqualTo(million);
        System.out.printf("FailedJobIndexTest: %,d rows added (table and index) in %.1f s, first page in %.2f ms, "
                + "index ~%,d MB%n", million, buildSeconds, searchMs, table.indexBytes() >> 20);
        assertThat(searchMs).as("first page of a word occurring once").isLessThan(100);
        assertThat(table.indexBytes() / million).as("bytes a row, its order number filed by hash, not listed")
                .isLessThan(200);
    }

    /** Reads see a view that is only the table. */
    private final class TableReader implements FailedJobSearch.Reader {
        private final BrokerView view = (BrokerView) Proxy.newProxyInstance(BrokerView.class.getClassLoader(),
                new Class<?>[] {BrokerView.class}, (proxy, method, args) -> {
                    assertThat(method.getName()).isEqualTo("failedJobs");
                    return table;
                });

        @Override
        public <T> T read(Function<BrokerView, T> query) {
            return query.apply(view);
        }
    }
}
