package io.regina.raft;

import static io.regina.testing.Broker.ackOf;
import static io.regina.testing.Broker.item;
import static org.assertj.core.api.Assertions.assertThat;

import io.regina.queue.AckStatus;
import io.regina.queue.Command;
import io.regina.queue.FailedJob;
import io.regina.queue.FailedJobSelector;
import io.regina.queue.Result;
import io.regina.testing.Broker;
import io.regina.testing.ManualClock;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A retry-by-text entry selects on replay the rows it selected when it was acknowledged: an entry of
 * the old op (substring text) and one of the new op (whole words) each keep their own meaning.
 */
class RetryFailedJobsReplayTest {

    /** Three rows of queue orders failed at {@link GoldenFixtures#T0}, by error: returns them in that order. */
    private static List<FailedJob> failedRows(Broker broker) {
        List<FailedJob> rows = new ArrayList<>();
        for (String error : List.of("readtimeout after 30s", "Timeout", "timeout")) {
            broker.push(item("orders").payload("{\"n\":1}"));
            Result.Delivery delivery = broker.pop("orders").messages().get(0);
            broker.ack(ackOf(delivery).status(AckStatus.DLQ).error(error));
            rows.add(broker.view().failedJobs().list("orders", null, 0, 0, 1, null).items().get(0));
        }
        return rows;
    }

    private static List<String> left(Broker broker) {
        return broker.view().failedJobs().list(null, null, 0, 0, 10, null).items().stream().map(FailedJob::error)
                .toList();
    }

    @Test
    void anEntryWrittenBeforeWholeWordSearchStillRetriesBySubstring() {
        Broker broker = new Broker(new ManualClock(GoldenFixtures.T0));
        failedRows(broker);
        byte[] frozen = CodecGoldenTest.bytes(CodecGoldenTest.resource(GoldenFixtures.LOG_FIXTURES
                + "/entry/retry-failed-jobs.bin"));
        Command legacy = EntryCodec.decodeEntry(ByteBuffer.wrap(frozen)).commands().get(2);
        assertThat(legacy).isEqualTo(new Command.RetryFailedJobs(new FailedJobSelector.Filter("orders", "timeout",
                GoldenFixtures.T0, GoldenFixtures.T0 + 1), 50));

        Result.FailedJobsRetried retried = broker.apply(legacy, Result.FailedJobsRetried.class);

        assertThat(retried.retried()).isEqualTo(2);
        assertThat(left(broker)).as("readtimeout holds timeout; Timeout differs in case").containsExactly("Timeout");
    }

    @Test
    void anEntryOfTheSearchOpRetriesByWholeWord() {
        Broker broker = new Broker(new ManualClock(GoldenFixtures.T0));
        failedRows(broker);
        Command search = new Command.RetryFailedJobs(new FailedJobSelector.Search("orders", "timeout",
                GoldenFixtures.T0, GoldenFixtures.T0 + 1), 50);
        byte[] entry = EntryCodec.encodeEntry(GoldenFixtures.ENTRY_NOW, List.of(search));
        assertThat(entry[1 + 8 + 4]).as("op code").isEqualTo((byte) CommandOp.RETRY_FAILED_JOBS_SEARCH.code());
        Command replayed = EntryCodec.decodeEntry(ByteBuffer.wrap(entry)).commands().get(0);

        Result.FailedJobsRetried retried = broker.apply(replayed, Result.FailedJobsRetried.class);

        assertThat(retried.retried()).isEqualTo(2);
        assertThat(left(broker)).as("whole words, any case").containsExactly("readtimeout after 30s");
    }
}
