package io.regina.queue;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.ToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Words in one row are filed by hash: a hash that collides must neither find a wrong row nor hide a
 * right one, and the table must keep every entry findable as others come and go.
 */
class FailedJobOneRowWordsTest {

    private static final long T0 = 1_767_225_600_000L;

    private int rows;

    private FailedJob row(String queue, String data, String error) {
        int n = rows++;
        return new FailedJob(Ids.timeOrdered(T0 + n, "row-" + n), queue, "Default", "p", "g", "m" + n, "t" + n, null,
                data, error, 1, null, T0, T0 + n, null);
    }

    private static List<FailedJob> search(FailedJobIndex index, String queue, String text) {
        return index.scan(new FailedJobIndex.Query(FailedJobWords.query(text), queue, 0, 0), null, true,
                Integer.MAX_VALUE, Integer.MAX_VALUE).matches();
    }

    @Test
    void wordsOfOneHashInDifferentRowsAreEachFoundInTheirOwnRow() {
        FailedJobIndex index = new FailedJobIndex(word -> 42L);
        FailedJob a = row("q", "{\"order\":1001}", "boom");
        FailedJob b = row("q", "{\"order\":1002}", "boom");
        index.add(a);
        index.add(b);

        assertThat(search(index, null, "1001")).containsExactly(a);
        assertThat(search(index, null, "1002")).containsExactly(b);
        assertThat(search(index, null, "1003")).as("a hash found, but no row holds the word").isEmpty();
        assertThat(search(index, null, "boom")).containsExactly(b, a);
        assertThat(index.count(new FailedJobIndex.Query(List.of("1001"), null, 0, 0))).isEqualTo(1);

        index.remove(a);
        assertThat(search(index, null, "1001")).isEmpty();
        assertThat(search(index, null, "1002")).containsExactly(b);
    }

    @Test
    void wordsOfOneHashInOneRowShareItsEntryAndStayFoundWhenOneOfThemSpreads() {
        FailedJobIndex index = new FailedJobIndex(word -> 42L);
        FailedJob both = row("q", "{\"order\":1001,\"customer\":\"ada\"}", "boom");
        index.add(both);
        FailedJob later = row("q", "{\"customer\":\"ada\"}", "boom");
        index.add(later);
        FailedJob third = row("q", "{\"order\":1001}", "boom");

        assertThat(search(index, null, "ada")).as("a list of both rows now").containsExactly(later, both);
        assertThat(search(index, null, "1001")).containsExactly(both);
        index.add(third);
        assertThat(search(index, null, "1001")).containsExactly(third, both);

        index.remove(both);
        assertThat(search(index, null, "ada")).containsExactly(later);
        assertThat(search(index, null, "1001")).containsExactly(third);
    }

    @Test
    void aWordHeldElsewhereSpreadsWhateverOrderTheEntriesOfItsHashAreIn() {
        // alpha and beta share a hash whose runs wrap from the table's last slot to its first; fN is in slot N.
        FailedJobIndex index = new FailedJobIndex(word -> word.startsWith("f") ? Long.parseLong(word.substring(1))
                : -1L);
        FailedJob elsewhere = row("q", "", "beta");
        index.add(elsewhere);
        for (int n = 1; n <= 10; n++) {
            index.add(row("q", "", "f" + n));
        }
        // alpha wraps to slot 0, f11 grows the table, which puts alpha's entry ahead of beta's
        FailedJob here = row("q", "", "alpha f11 beta");
        index.add(here);

        assertThat(search(index, null, "beta")).containsExactly(here, elsewhere);
        assertThat(search(index, null, "alpha")).containsExactly(here);
    }

    /** Random rows and removals, under a good hash and under hashes that collide: always what brute force finds. */
    @Test
    void searchesFindWhatTheRowsHoldWhateverTheHash() {
        List<ToLongFunction<String>> hashes = List.of(FailedJobOneRowWords::hash, word -> word.length(),
                word -> word.charAt(0) % 3);
        for (ToLongFunction<String> hash : hashes) {
            Random random = new Random(7);
            FailedJobIndex index = new FailedJobIndex(hash);
            List<FailedJob> live = new ArrayList<>();
            for (int step = 0; step < 6_000; step++) {
                if (!live.isEmpty() && random.nextInt(3) == 0) {
                    index.remove(live.remove(random.nextInt(live.size())));
                } else {
                    FailedJob job = row("q" + random.nextInt(2), "{\"id\":\"" + random.nextInt(5_000) + "\",\"k\":\"w"
                            + random.nextInt(40) + "\"}", "err u" + random.nextInt(3_000) + " v" + random.nextInt(3));
                    index.add(job);
                    live.add(job);
                }
                if (step % 250 == 0) {
                    for (int probe = 0; probe < 40; probe++) {
                        String text = switch (probe % 4) {
                            case 0 -> String.valueOf(random.nextInt(5_000));
                            case 1 -> "u" + random.nextInt(3_000);
                            case 2 -> "w" + random.nextInt(40) + " v" + random.nextInt(3);
                            default -> random.nextInt(5_000) + " u" + random.nextInt(3_000);
                        };
                        String queue = probe % 5 == 0 ? "q1" : null;
                        assertThat(search(index, queue, text)).as("%s in %s", text, queue)
                                .containsExactlyElementsOf(bruteForce(live, queue, text));
                    }
                }
            }
            live.forEach(index::remove);
            assertThat(search(index, null, "err")).isEmpty();
        }
    }

    private static List<FailedJob> bruteForce(List<FailedJob> live, String queue, String text) {
        List<String> words = FailedJobWords.query(text);
        List<FailedJob> matching = new ArrayList<>();
        for (FailedJob job : live) {
            Set<String> held = new HashSet<>();
            FailedJobWords.indexed(job.error(), held::add);
            FailedJobWords.indexed(job.data(), held::add);
            if ((queue == null || job.queue().equals(queue)) && held.containsAll(words)) {
                matching.add(job);
            }
        }
        matching.sort((x, y) -> y.uuid().compareTo(x.uuid()));
        return matching;
    }

    @Test
    void theTableKeepsEveryEntryFindableAsEntriesOfCollidingHashesComeAndGo() {
        FailedJobOneRowWords table = new FailedJobOneRowWords();
        Random random = new Random(3);
        List<long[]> model = new ArrayList<>();
        for (int step = 0; step < 50_000; step++) {
            if (!model.isEmpty() && random.nextInt(5) < (step < 25_000 ? 2 : 4)) {
                long[] gone = model.remove(random.nextInt(model.size()));
                table.remove(gone[0], (int) gone[1]);
            } else {
                // Few hashes, and ones whose low bits all meet at the end of the table: long runs that wrap.
                long hash = random.nextBoolean() ? random.nextInt(8) : -1L - random.nextInt(4);
                int row = step;
                table.add(hash, row);
                model.add(new long[] {hash, row});
            }
            if (step % 1_000 == 0) {
                for (long[] entry : model) {
                    assertThat(table.find(entry[0], row -> row == entry[1])).isEqualTo((int) entry[1]);
                }
                assertThat(table.size()).isEqualTo(model.size());
            }
        }
        assertThat(table.find(99, row -> true)).isEqualTo(-1);
    }
}
