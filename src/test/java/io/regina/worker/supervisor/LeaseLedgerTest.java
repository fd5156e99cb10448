package io.regina.worker.supervisor;

import io.regina.client.AckStatus;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A worker's journal lines, read into what a dead worker leaves to hand back. */
class LeaseLedgerTest {
    private final JsonMapper json = JsonMapper.builder().build();
    private final LeaseLedger ledger = new LeaseLedger(json);

    private void line(String event, String rest) {
        ledger.apply(json.readTree("{\"event\":\"" + event + "\",\"leaseId\":\"L\",\"pid\":1,"
                + "\"at\":\"2026-01-01T00:00:00Z\"" + rest + "}"));
    }

    private static String job(String tx, int attempts) {
        return "{\"transactionId\":\"" + tx + "\",\"partitionId\":\"P\",\"consumerGroup\":\"__QUEUE_MODE__\","
                + "\"attempts\":" + attempts + "}";
    }

    private void leased(String... jobs) {
        line("leased", ",\"jobs\":[" + String.join(",", jobs) + "]");
    }

    private void finished(String tx, String status) {
        line("finished", ",\"transactionId\":\"" + tx + "\",\"ack\":{\"transactionId\":\"" + tx
                + "\",\"partitionId\":\"P\",\"status\":\"" + status + "\",\"leaseId\":\"L\"}");
    }

    @Test
    void aBatchCutShortLeavesItsUnsentAckTheRunningJobAndTheUnstartedOnes() {
        leased(job("a", 1), job("b", 1), job("c", 2), job("d", 1));
        line("started", ",\"transactionId\":\"a\",\"attempt\":1");
        finished("a", "completed");
        line("acked", ",\"transactionId\":\"a\"");
        line("started", ",\"transactionId\":\"b\",\"attempt\":1");
        finished("b", "completed");
        line("started", ",\"transactionId\":\"c\",\"attempt\":2");

        assertThat(ledger.running()).hasValueSatisfying(r -> assertThat(r.job().transactionId()).isEqualTo("c"));
        List<LeaseLedger.Unsettled> left = ledger.unsettled();
        assertThat(left).hasSize(1);
        LeaseLedger.Unsettled lease = left.get(0);
        assertThat(lease.leaseId()).isEqualTo("L");
        assertThat(lease.unsent()).singleElement().satisfies(ack -> {
            assertThat(ack.transactionId()).isEqualTo("b");
            assertThat(ack.status()).isEqualTo(AckStatus.COMPLETED);
        });
        assertThat(lease.interrupted().transactionId()).isEqualTo("c");
        assertThat(lease.interrupted().attempts()).isEqualTo(2);
        assertThat(lease.unstarted()).extracting(LeaseLedger.Held::transactionId).containsExactly("d");
    }

    @Test
    void aDeliveryRefusedWithoutRunningIsNeitherRunningNorUnstarted() {
        leased(job("a", 3));
        finished("a", "dlq");

        LeaseLedger.Unsettled lease = ledger.unsettled().get(0);
        assertThat(lease.interrupted()).isNull();
        assertThat(lease.unstarted()).isEmpty();
        assertThat(lease.unsent()).extracting(ack -> ack.status()).containsExactly(AckStatus.DLQ);
        assertThat(ledger.running()).isEmpty();
    }

    @Test
    void aDoneLeaseLeavesNothingAndOtherLinesChangeNothing() {
        leased(job("a", 1));
        line("started", ",\"transactionId\":\"a\",\"attempt\":1");
        finished("a", "completed");
        line("done", "");

        assertThat(ledger.unsettled()).isEmpty();
        assertThat(ledger.leasesHeld()).isZero();
        assertThat(ledger.apply(json.readTree("{\"hello\":\"a job printed this\"}"))).isFalse();
    }
}
