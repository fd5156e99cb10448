package io.regina.queue;

import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import static io.regina.testing.Broker.data;
import static io.regina.testing.Broker.from;
import static io.regina.testing.Broker.item;
import static io.regina.testing.Options.options;
import static org.assertj.core.api.Assertions.assertThat;

class TimingTest {

    private final Broker broker = new Broker();

    @Test
    void aDelayedMessageDoesNotHoldBackLaterMessages() {
        broker.push(item("q").payload("later").delayMs(5_000), item("q").payload("now"));

        assertThat(data(broker.pop("q", 5))).containsExactly("now");
        assertThat(broker.view().depth("q", null).delayed()).isEqualTo(1);
    }

    @Test
    void aDelayedMessageBecomesDeliverableWhenDue() {
        broker.push(item("q").payload("later").delayMs(5_000));

        broker.advance(4_999);
        assertThat(broker.pop("q").messages()).isEmpty();
        broker.advance(1);
        assertThat(data(broker.pop("q"))).containsExactly("later");
    }

    @Test
    void availableAtIsAnAbsoluteDelay() {
        broker.push(item("q").payload("x").availableAt(broker.now() + 2_000));

        assertThat(broker.pop("q").messages()).isEmpty();
        broker.advance(2_000).tick();
        assertThat(broker.view().depth("q", null).pending()).isEqualTo(1);
        assertThat(data(broker.pop("q"))).containsExactly("x");
    }

    @Test
    void availableAtInThePastIsDeliverableAtOnce() {
        broker.push(item("q").payload("x").availableAt(broker.now() - 1));

        assertThat(data(broker.pop("q"))).containsExactly("x");
    }

    @Test
    void delayedProcessingShowsAMessageOnceItIsThatOld() {
        broker.configure("q", options().delayedProcessing(10));
        broker.push("q", "a");
        broker.advanceSeconds(5);
        broker.push("q", "b");

        assertThat(broker.pop("q", 5).messages()).isEmpty();
        broker.advanceSeconds(5);
        assertThat(data(broker.pop("q", 5))).containsExactly("a");
    }

    @Test
    void delayedProcessingWakesAnIdleQueueThroughATick() {
        broker.configure("q", options().delayedProcessing(10));
        broker.push("q", "a");
        assertThat(broker.pop("q").messages()).isEmpty();
        broker.state().drainDeliverable();

        broker.advanceSeconds(10).tick();

        assertThat(broker.state().drainDeliverable()).contains("q");
        assertThat(data(broker.pop("q"))).containsExactly("a");
    }

    @Test
    void windowBufferHoldsAPartitionUntilItsNewestMessageIsThatOld() {
        broker.configure("q", options().windowBuffer(10));
        broker.push("q", "a");
        broker.advanceSeconds(8);
        broker.push("q", "b");

        broker.advanceSeconds(8);
        assertThat(broker.pop("q", 5).messages()).isEmpty();
        broker.advanceSeconds(2);
        assertThat(data(broker.pop("q", 5))).containsExactly("a", "b");
    }

    @Test
    void retentionDeletesEveryMessageOlderThanRetentionSeconds() {
        broker.configure("q", options().retentionSeconds(60));
        broker.push("q", "old");
        broker.advanceSeconds(30);
        broker.push("q", "young");

        broker.advanceSeconds(31);
        Result.Ticked ticked = broker.tick();

        assertThat(ticked.removedMessages()).isEqualTo(1);
        assertThat(data(broker.pop("q", 5))).containsExactly("young");
    }

    @Test
    void completedRetentionDeletesConsumedMessagesOnceTheyAreThatOld() {
        broker.configure("q", options().completedRetentionSeconds(60).retentionEnabled(true));
        broker.push("q", "done", "waiting");
        broker.ack(broker.pop("q").messages().get(0));
        assertThat(broker.view().queue("q").storedMessages()).isEqualTo(2);

        broker.advanceSeconds(61).tick();

        assertThat(broker.view().queue("q").storedMessages()).isEqualTo(1);
        assertThat(data(broker.pop("q", 5))).containsExactly("waiting");
    }

    @Test
    void evictionDeletesUnconsumedMessagesOlderThanMaxWait() {
        broker.configure("q", options().maxWaitTimeSeconds(30));
        broker.push("q", "stale");
        broker.advanceSeconds(20);
        broker.push("q", "fresh");

        broker.advanceSeconds(11).tick();

        assertThat(data(broker.pop("q", 5))).containsExactly("fresh");
    }

    @Test
    void evictionIsNotBlockedByAConsumedMessageAhead() {
        broker.configure("q", options().maxWaitTimeSeconds(30));
        broker.push("q", "consumed", "stale");
        broker.ack(broker.pop(from("q").group("g")).messages().get(0));
        broker.ack(broker.pop(from("q")).messages().get(0));

        broker.advanceSeconds(31).tick();

        assertThat(broker.pop(from("q").group("g").batch(5)).messages()).isEmpty();
        assertThat(broker.pop(from("q").batch(5)).messages()).isEmpty();
    }

    @Test
    void leasedMessagesAreNotRemovedUnderTheWorkersFeet() {
        broker.configure("q", options().retentionSeconds(10).leaseTime(300));
        broker.push("q", "a");
        var delivery = broker.pop("q").messages().get(0);

        broker.advanceSeconds(20).tick();

        assertThat(broker.ack(delivery).success()).isTrue();
    }

    @Test
    void completedMessagesAreRemovedAtOnceInAQueueModeOnlyQueue() {
        broker.push("q", "a", "b");

        broker.ack(broker.pop("q").messages().get(0));

        assertThat(broker.view().queue("q").storedMessages()).isEqualTo(1);
        assertThat(broker.view().storedMessages()).isEqualTo(1);
        assertThat(broker.view().findMessages(broker.view().browse("q", "Default", 0, 10).get(0).transactionId(), 5))
                .extracting(Views.MessageView::status).containsExactly("pending");
    }

    @Test
    void autoAckedMessagesAreRemovedToo() {
        broker.push("q", "a", "b");

        broker.pop(from("q").batch(2).autoAck());

        assertThat(broker.view().storedMessages()).isZero();
    }
}
