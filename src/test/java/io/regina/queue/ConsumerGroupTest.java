package io.regina.queue;

import io.regina.queue.Result.Popped;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import static io.regina.testing.Broker.data;
import static io.regina.testing.Broker.from;
import static io.regina.testing.Broker.item;
import static org.assertj.core.api.Assertions.assertThat;

class ConsumerGroupTest {

    private final Broker broker = new Broker();

    @Test
    void everyGroupSeesEveryMessage() {
        broker.push("q", "a", "b");

        assertThat(data(broker.pop(from("q").group("billing").batch(5)))).containsExactly("a", "b");
        assertThat(data(broker.pop(from("q").group("audit").batch(5)))).containsExactly("a", "b");
        assertThat(data(broker.pop(from("q").batch(5)))).containsExactly("a", "b");
    }

    @Test
    void aGroupsLeaseDoesNotHoldBackAnotherGroup() {
        broker.push("q", "a");
        Popped billing = broker.pop(from("q").group("billing"));

        Popped audit = broker.pop(from("q").group("audit"));

        assertThat(billing.group()).isEqualTo("billing");
        assertThat(data(audit)).containsExactly("a");
        assertThat(broker.ack(billing.messages().get(0)).success()).isTrue();
        assertThat(broker.pop(from("q").group("billing")).messages()).isEmpty();
        assertThat(broker.pop(from("q").group("audit")).messages()).isEmpty();
    }

    @Test
    void messagesStayStoredOnceANamedGroupReadsTheQueue() {
        broker.push("q", "a");
        broker.ack(broker.pop(from("q").group("g")).messages().get(0));
        broker.ack(broker.pop("q").messages().get(0));

        assertThat(broker.view().queue("q").storedMessages()).isEqualTo(1);
    }

    @Test
    void anAckFindsTheGroupsOwnEntryWhenAnotherGroupReleasedACopy() {
        broker.push(Broker.item("q").tx("t").payload("a"));
        Popped billing = broker.pop(from("q").group("billing"));
        broker.ack(Broker.ackOf(billing.messages().get(0)).status(AckStatus.RELEASE));
        var audit = broker.pop(from("q").group("audit")).messages().get(0);
        broker.advanceSeconds(300);

        Result.AckOutcome outcome = broker.ack(Broker.ackOf(audit).withoutLease());

        assertThat(outcome.success()).isTrue();
        assertThat(broker.pop(from("q").group("audit")).messages()).isEmpty();
        assertThat(data(broker.pop(from("q").group("billing")))).containsExactly("a");
    }

    @Test
    void subscriptionNewDeliversOnlyMessagesAfterTheFirstPop() {
        broker.push("q", "old");
        broker.advance(10);

        assertThat(broker.pop(from("q").group("g").subscriptionNew()).messages()).isEmpty();
        broker.advance(10);
        broker.push(item("q").payload("new"), item("q").partition("other").payload("new-other"));

        assertThat(data(broker.pop(from("q").group("g").subscriptionNew().batch(5)))).containsExactly("new");
        assertThat(data(broker.pop(from("q").group("g").batch(5)))).containsExactly("new-other");
    }

    @Test
    void subscriptionFromATimeStartsAfterIt() {
        broker.push("q", "a");
        long between = broker.now();
        broker.advance(10);
        broker.push("q", "b");

        assertThat(data(broker.pop(from("q").group("g").subscriptionFrom(between).batch(5)))).containsExactly("b");
    }

    @Test
    void queueModeIgnoresTheSubscription() {
        broker.push("q", "a");
        broker.advance(10);

        assertThat(data(broker.pop(from("q").subscriptionNew()))).containsExactly("a");
    }

    @Test
    void setSubscriptionAppliesToQueuesTheGroupStartsLater() {
        broker.push("q", "a");
        broker.advance(10);
        long at = broker.now();
        broker.advance(10);
        broker.push("q", "b");

        broker.apply(new Command.SetSubscription("g", at));

        assertThat(data(broker.pop(from("q").group("g").batch(5)))).containsExactly("b");
    }

    @Test
    void seekToATimeRereadsFromThere() {
        broker.push("q", "a");
        broker.advance(10);
        long afterA = broker.now();
        broker.advance(10);
        broker.push("q", "b");
        broker.ack(broker.pop(from("q").group("g")).messages().get(0));
        Popped leased = broker.pop(from("q").group("g"));
        assertThat(data(leased)).containsExactly("b");

        Result.Sought sought = broker.apply(new Command.Seek("g", "q", afterA, false), Result.Sought.class);

        assertThat(sought.partitionsUpdated()).isEqualTo(1);
        assertThat(broker.view().leaseCount()).as("the group's leases are released").isZero();
        assertThat(data(broker.pop(from("q").group("g").batch(5)))).containsExactly("b");
    }

    @Test
    void seekToTheStartRereadsEverything() {
        broker.push("q", "a", "b");
        broker.pop(from("q").group("g").batch(5).autoAck());

        broker.apply(new Command.Seek("g", "q", 0, false));

        assertThat(data(broker.pop(from("q").group("g").batch(5)))).containsExactly("a", "b");
    }

    @Test
    void seekToEndSkipsEverythingWaiting() {
        broker.push("q", "a", "b");
        broker.pop(from("q").group("g"));

        broker.apply(new Command.Seek("g", "q", 0, true));

        assertThat(broker.pop(from("q").group("g")).messages()).isEmpty();
        broker.push("q", "c");
        assertThat(data(broker.pop(from("q").group("g")))).containsExactly("c");
    }

    @Test
    void seekOnAnUnknownQueueIsNotFound() {
        assertThat(broker.apply(new Command.Seek("g", "nowhere", 0, true)))
                .isInstanceOfSatisfying(Result.Rejected.class,
                        r -> {
                            assertThat(r.rejection()).isEqualTo(Rejection.QUEUE_NOT_FOUND);
                            assertThat(r.rejection().httpStatus()).isEqualTo(404);
                            assertThat(r.message()).isEqualTo("Queue 'nowhere' does not exist");
                        });
    }

    @Test
    void deletingAGroupDropsItsCursorsAndLeases() {
        broker.push("q", "a");
        broker.pop(from("q").group("g"));

        Result.GroupDeleted deleted = broker.apply(new Command.DeleteGroup("g", "q"), Result.GroupDeleted.class);

        assertThat(deleted.deletedPartitions()).isEqualTo(1);
        assertThat(broker.view().leaseCount()).isZero();
        assertThat(broker.view().queue("q").groups()).isEmpty();
        assertThat(data(broker.pop(from("q").group("g")))).as("it starts over").containsExactly("a");
    }

    @Test
    void deletingAnUnknownGroupSucceeds() {
        Result.GroupDeleted deleted = broker.apply(new Command.DeleteGroup("nobody", null), Result.GroupDeleted.class);

        assertThat(deleted.deletedPartitions()).isZero();
    }

    @Test
    void deletingAGroupEverywhereForgetsItsSubscription() {
        broker.apply(new Command.SetSubscription("g", broker.now() + 1_000));
        broker.push("q", "a");

        Result.GroupDeleted deleted = broker.apply(new Command.DeleteGroup("g", null), Result.GroupDeleted.class);

        assertThat(deleted.metadataDeleted()).isTrue();
        assertThat(data(broker.pop(from("q").group("g")))).containsExactly("a");
    }
}
