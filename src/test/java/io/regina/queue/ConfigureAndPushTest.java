package io.regina.queue;

import io.regina.queue.Result.PushOutcome;
import io.regina.queue.Result.PushStatus;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import static io.regina.testing.Broker.data;
import static io.regina.testing.Broker.item;
import static io.regina.testing.Options.options;
import static org.assertj.core.api.Assertions.assertThat;

class ConfigureAndPushTest {

    private final Broker broker = new Broker();

    @Test
    void configureCreatesTheQueueWithItsDefaultPartition() {
        Result.Configured configured = broker.configure("orders", options().leaseTime(30));

        assertThat(configured.queue()).isEqualTo("orders");
        assertThat(configured.options().leaseTime()).isEqualTo(30);
        assertThat(configured.partitionId()).isEqualTo(Ids.named("partition", "orders", "Default"));
        assertThat(broker.view().partitions("orders", 0, 10)).extracting(Views.PartitionView::name)
                .containsExactly("Default");
    }

    @Test
    void configureIsAnUpsertThatResetsOmittedOptionsToDefaults() {
        Result.Configured first = broker.configure("orders", options().leaseTime(30).retryLimit(9).maxSize(5));

        Result.Configured second = broker.configure("orders", options().priority(4));

        assertThat(second.options()).isEqualTo(options().priority(4).build());
        assertThat(second.options().leaseTime()).isEqualTo(300);
        assertThat(second.options().retryLimit()).isEqualTo(3);
        assertThat(second.queueId()).isEqualTo(first.queueId());
        assertThat(second.partitionId()).isEqualTo(first.partitionId());
        assertThat(broker.view().queue("orders").options()).isEqualTo(second.options());
    }

    @Test
    void configureOfAQueueCreatedByAPushAddsDefaultAndKeepsTheOtherPartitions() {
        broker.push(item("orders").partition("eu"));

        broker.configure("orders");

        assertThat(broker.view().partitions("orders", 0, 10)).extracting(Views.PartitionView::name)
                .containsExactlyInAnyOrder("eu", "Default");
        assertThat(broker.view().depth("orders", null).pending()).isEqualTo(1);
    }

    @Test
    void pushCreatesTheQueueAndDerivesNamespaceAndTask() {
        broker.push("billing.invoice.send", "a");
        broker.push("plain", "b");

        assertThat(broker.view().queue("billing.invoice.send").namespace()).isEqualTo("billing");
        assertThat(broker.view().queue("billing.invoice.send").task()).isEqualTo("invoice");
        assertThat(broker.view().queue("plain").namespace()).isNull();
        assertThat(broker.view().queue("plain").task()).isNull();
    }

    @Test
    void pushAnswersOneQueuedOutcomePerItemInInputOrder() {
        Result.Pushed pushed = broker.push(item("q").tx("t1").messageId("m1").traceId("tr1"),
                item("q").tx("t2").messageId("m2").partition("p"));

        assertThat(pushed.outcomes()).extracting(PushOutcome::index, PushOutcome::transactionId,
                        PushOutcome::status, PushOutcome::messageId, PushOutcome::queue)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0, "t1", PushStatus.QUEUED, "m1", "q"),
                        org.assertj.core.groups.Tuple.tuple(1, "t2", PushStatus.QUEUED, "m2", "q"));
        assertThat(pushed.outcomes().get(0).partitionId()).isEqualTo(Ids.named("partition", "q", "Default"));
        assertThat(pushed.outcomes().get(1).partitionId()).isEqualTo(Ids.named("partition", "q", "p"));
        assertThat(pushed.outcomes().get(0).traceId()).isEqualTo("tr1");
    }

    @Test
    void payloadIsKeptAsGivenIncludingNull() {
        broker.push(item("q").payload("{\"a\":1}"), item("q").payload(null));

        Result.Popped popped = broker.pop("q", 2);

        assertThat(data(popped)).containsExactly("{\"a\":1}", null);
    }

    @Test
    void duplicateTransactionIdReturnsTheOriginalsId() {
        broker.push(item("q").tx("t").messageId("original"));

        PushOutcome duplicate = broker.push(item("q").tx("t").messageId("second")).outcomes().get(0);

        assertThat(duplicate.status()).isEqualTo(PushStatus.DUPLICATE);
        assertThat(duplicate.messageId()).isEqualTo("original");
        assertThat(broker.view().depth("q", null).pending()).isEqualTo(1);
    }

    @Test
    void withinOneRequestTheFirstOfAKeyWins() {
        Result.Pushed pushed = broker.push(item("q").tx("t").messageId("first").payload("1"),
                item("q").tx("t").messageId("second").payload("2"));

        assertThat(pushed.outcomes()).extracting(PushOutcome::status)
                .containsExactly(PushStatus.QUEUED, PushStatus.DUPLICATE);
        assertThat(pushed.outcomes().get(1).messageId()).isEqualTo("first");
        assertThat(data(broker.pop("q", 5))).containsExactly("1");
    }

    @Test
    void dedupIsPerPartition() {
        Result.Pushed pushed = broker.push(item("q").tx("t").partition("a"), item("q").tx("t").partition("b"));

        assertThat(pushed.outcomes()).extracting(PushOutcome::status)
                .containsExactly(PushStatus.QUEUED, PushStatus.QUEUED);
    }

    @Test
    void aDelayedMessageStillDeduplicates() {
        broker.push(item("q").tx("t").messageId("m1").delayMs(10_000));

        PushOutcome outcome = broker.push(item("q").tx("t")).outcomes().get(0);

        assertThat(outcome.status()).isEqualTo(PushStatus.DUPLICATE);
        assertThat(outcome.messageId()).isEqualTo("m1");
    }

    @Test
    void aReleasedMessageWaitingForItsDelayStillDeduplicates() {
        broker.push(item("q").tx("t").messageId("m1"));
        broker.ack(Broker.ackOf(broker.pop("q").messages().get(0)).status(AckStatus.RELEASE).delayMs(10_000));

        PushOutcome outcome = broker.push(item("q").tx("t")).outcomes().get(0);

        assertThat(outcome.status()).isEqualTo(PushStatus.DUPLICATE);
        assertThat(outcome.messageId()).isEqualTo("m1");
    }

    @Test
    void pushPastMaxSizeIsRejectedAndNothingIsApplied() {
        broker.configure("q", options().maxSize(3));
        broker.push("q", "a", "b");

        Result result = broker.apply(new Command.Push(broker.pushItems(item("q"), item("q"))));

        assertThat(result).isInstanceOf(Result.Rejected.class);
        assertThat(((Result.Rejected) result).rejection()).isEqualTo(Rejection.QUEUE_FULL);
        assertThat(((Result.Rejected) result).message()).contains("maxSize 3");
        assertThat(broker.view().depth("q", null).pending()).isEqualTo(2);
        assertThat(broker.push("q", "c").outcomes().get(0).status()).isEqualTo(PushStatus.QUEUED);
    }

    @Test
    void consumedMessagesFreeRoomUnderMaxSize() {
        broker.configure("q", options().maxSize(1));
        broker.push("q", "a");
        broker.ack(broker.pop("q").messages().get(0));

        assertThat(broker.push("q", "b").outcomes().get(0).status()).isEqualTo(PushStatus.QUEUED);
    }

    @Test
    void emptyPushAnswersNoOutcomes() {
        assertThat(broker.push().outcomes()).isEmpty();
    }
}
