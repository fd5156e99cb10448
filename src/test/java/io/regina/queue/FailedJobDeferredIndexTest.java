package io.regina.queue;

import io.regina.queue.Result.Delivery;
import io.regina.queue.Result.FailedJobsRetried;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.regina.testing.Broker.ackOf;
import static io.regina.testing.Broker.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A failed-jobs table whose word index lags the rows and catches up later, in slices. */
class FailedJobDeferredIndexTest {

    private static final long T0 = 1_767_225_600_000L;

    private int rows;

    private FailedJob row(long ms, String queue, String data, String error) {
        int n = rows++;
        return new FailedJob(Ids.timeOrdered(T0 + ms, "row-" + n), queue, "Default", "p", "g", "m" + n, "t" + n,
                null, data, error, 1, null, T0, T0 + ms, null);
    }

    @Test
    void aLaggingIndexThatCatchesUpInSlicesAnswersAsOneKeptUpAtEveryChange() {
        FailedJobTable immediate = new FailedJobTable();
        FailedJobTable deferred = new FailedJobTable();
        deferred.deferIndexing();
        Random random = new Random(7);
        List<FailedJob> live = new ArrayList<>();
        for (int step = 0; step < 20_000; step++) {
            int what = random.nextInt(10);
            if (!live.isEmpty() && what < 3) {
                String uuid = live.remove(random.nextInt(live.size())).uuid();
                immediate.remove(uuid);
                deferred.remove(uuid);
            } else if (!live.isEmpty() && what == 3) {
                FailedJob old = live.remove(random.nextInt(live.size()));
                FailedJob replaced = new FailedJob(old.uuid(), old.queue(), "Default", "p", "g", "m", "t", null,
                        "{\"k\":\"w" + random.nextInt(50) + "\"}", "replaced", 2, null, T0, old.failedAt(), null);
                live.add(replaced);
                immediate.add(replaced);
                deferred.add(replaced);
            } else {
                // Several rows a millisecond, as one dead-letter ack of many items fails them.
                FailedJob added = row(step / 8, "q" + random.nextInt(3), "{\"k\":\"w" + random.nextInt(50) + "\"}",
                        "err " + random.nextInt(5));
                live.add(added);
                immediate.add(added);
                deferred.add(added);
            }
            if (random.nextInt(40) == 0) {
                deferred.catchUp(1 + random.nextInt(60));
            }
            if (step % 1_999 == 0) {
                deferred.catchUp(Integer.MAX_VALUE);
                assertThat(deferred.indexBehind()).isZero();
                for (String text : List.of("w7", "w7 err", "replaced", "err 3", "nothing")) {
                    assertThat(deferred.list("q1", text, 0, 0, Integer.MAX_VALUE, null))
                            .isEqualTo(immediate.list("q1", text, 0, 0, Integer.MAX_VALUE, null));
                    assertThat(deferred.list(null, text, T0 + 100, T0 + 2_000, 25, null))
                            .isEqualTo(immediate.list(null, text, T0 + 100, T0 + 2_000, 25, null));
                    assertThat(deferred.count(null, text, 0, 0)).isEqualTo(immediate.count(null, text, 0, 0));
                }
                assertThat(deferred.indexBytes()).as("the same changes in the same order: the same index")
                        .isEqualTo(immediate.indexBytes());
            }
        }
    }

    @Test
    void aTextReadWhileTheIndexLagsIsRefusedAndOtherReadsAreNot() {
        FailedJobTable table = new FailedJobTable();
        table.deferIndexing();
        FailedJob row = row(1, "q", "{\"order\":42}", "timeout");
        table.add(row);

        assertThat(table.indexBehind()).isEqualTo(1);
        assertThatThrownBy(() -> table.list(null, "42", 0, 0, 10, null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("1 changes behind");
        assertThat(table.list(null, null, 0, 0, 10, null).items()).containsExactly(row);
        assertThat(table.get(row.uuid())).isEqualTo(row);

        assertThat(table.catchUp(1)).as("nothing left").isFalse();
        assertThat(table.list(null, "42", 0, 0, 10, null).items()).containsExactly(row);
    }

    @Test
    void retryingBySearchCatchesTheIndexUpAndRetriesExactlyTheMatchingRows() {
        Broker broker = new Broker();
        broker.state().deferFailedJobIndex();
        for (int i = 0; i < 30; i++) {
            broker.push(item("q").payload("{\"order\":" + i + ",\"shard\":\"s" + i % 3 + "\"}"));
            Delivery delivery = broker.pop("q").messages().get(0);
            broker.ack(ackOf(delivery).status(AckStatus.DLQ).error("timeout"));
        }
        assertThat(broker.state().failedJobIndexBehind()).isEqualTo(30);

        FailedJobsRetried retried = broker.apply(new Command.RetryFailedJobs(
                new FailedJobSelector.Search("q", "s1", 0, 0), 100), FailedJobsRetried.class);

        assertThat(retried.retried()).isEqualTo(10);
        assertThat(broker.state().failedJobIndexBehind()).as("the 10 rows retried left the table since")
                .isEqualTo(10);
        broker.state().catchUpFailedJobIndex(Integer.MAX_VALUE);
        assertThat(broker.view().failedJobs().list(null, "s1", 0, 0, 100, null).total()).isZero();
        assertThat(broker.view().failedJobs().list(null, "timeout", 0, 0, 100, null).total()).isEqualTo(20);
    }
}
