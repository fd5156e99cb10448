package io.regina.queue;

import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.regina.testing.Broker.data;
import static io.regina.testing.Broker.from;
import static io.regina.testing.Broker.item;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a consumer group starts (issue 9): with {@code subscriptionMode: new} or a subscription time,
 * on a queue of many partitions, a group skips what came before its first pop in every partition that
 * existed then, and gets everything pushed afterwards, in those partitions and in ones created later.
 */
class SubscriptionTest {

    private static final int PARTITIONS = 5_000;

    private final Broker broker = new Broker();

    @Test
    void modeNewSkipsTheHistoryOfFiveThousandPartitionsAndGetsEveryNewMessage() {
        pushOneEach("old");
        broker.advance(10);

        assertThat(broker.pop(from("q").group("g").subscriptionNew()).messages()).isEmpty();
        broker.advance(10);
        pushOneEach("new");

        assertDrainsExactlyTheNewMessages(from("q").group("g").subscriptionNew());
    }

    @Test
    void aSubscriptionTimeSkipsTheHistoryOfFiveThousandPartitionsAndGetsEveryNewMessage() {
        pushOneEach("old");
        broker.advance(10);
        long between = broker.now();
        broker.advance(10);

        assertThat(broker.pop(from("q").group("g").subscriptionFrom(between)).messages()).isEmpty();
        broker.advance(10);
        pushOneEach("new");

        assertDrainsExactlyTheNewMessages(from("q").group("g").subscriptionFrom(between));
    }

    @Test
    void laterPopsWithoutAModeKeepWhereTheGroupStarted() {
        pushOneEach("old");
        broker.advance(10);
        broker.pop(from("q").group("g").subscriptionNew());
        broker.advance(10);
        pushOneEach("new");

        assertDrainsExactlyTheNewMessages(from("q").group("g"));
    }

    @Test
    void thePartitionsStillHoldTheirNewMessagesAfterARestart() {
        pushOneEach("old");
        broker.advance(10);
        broker.pop(from("q").group("g").subscriptionNew());
        broker.advance(10);
        pushOneEach("new");

        broker.reload();

        assertDrainsExactlyTheNewMessages(from("q").group("g").subscriptionNew());
    }

    @Test
    void aPartitionCreatedAfterTheGroupStartedIsReadFromItsFirstMessage() {
        broker.push(item("q").partition("existing").payload("old"));
        broker.advance(10);
        broker.pop(from("q").group("g").subscriptionNew());

        // Same millisecond as the first pop: after it all the same.
        broker.push(item("q").partition("later").payload("first"), item("q").partition("later").payload("second"));
        broker.advance(10);
        broker.push(item("q").partition("existing").payload("new"));

        assertThat(data(broker.pop(from("q").group("g").subscriptionNew().partition("later").batch(10))))
                .containsExactly("first", "second");
        assertThat(data(broker.pop(from("q").group("g").subscriptionNew().batch(10)))).containsExactly("new");
    }

    @Test
    void aPartitionThatExistedKeepsItsHistorySkippedAndItsLaterMessages() {
        broker.push(item("q").partition("p").payload("old-1"), item("q").partition("p").payload("old-2"));
        broker.advance(10);
        long between = broker.now();
        broker.advance(10);
        broker.push(item("q").partition("p").payload("after-the-time"));
        broker.advance(10);

        assertThat(data(broker.pop(from("q").group("g").subscriptionFrom(between).batch(10))))
                .containsExactly("after-the-time");
        assertThat(broker.pop(from("q").group("late").subscriptionNew().batch(10)).messages()).isEmpty();
        broker.push(item("q").partition("p").payload("new"));
        assertThat(data(broker.pop(from("q").group("late").subscriptionNew().batch(10)))).containsExactly("new");
    }

    @Test
    void aGroupWhoseFirstPopFindsEveryPartitionEmptyIsRegisteredByIt() {
        pushOneEach("old");
        for (int i = 0; i < PARTITIONS; i++) {
            broker.pop(from("q").autoAck());
        }
        assertThat(broker.view().queue("q").storedMessages()).as("queue mode dropped what it consumed").isZero();

        // Long-polls submit a pop only when the view says it may deliver: this one must be applied.
        assertThat(broker.view().mayDeliver("q", null, "g")).isTrue();
        assertThat(broker.view().mayDeliver("q", "p-1", "g")).isTrue();
        assertThat(broker.pop(from("q").group("g").subscriptionNew()).messages()).isEmpty();
        assertThat(broker.view().mayDeliver("q", null, "g")).as("registered, nothing to deliver").isFalse();
        broker.advance(10);
        pushOneEach("new");

        assertThat(broker.view().mayDeliver("q", null, "g")).isTrue();
        assertThat(broker.view().readyPartitions("q", "g")).isEqualTo(PARTITIONS);
        assertDrainsExactlyTheNewMessages(from("q").group("g").subscriptionNew());
    }

    @Test
    void aPausedQueueRegistersNoGroup() {
        broker.push("q", "old");
        broker.apply(new Command.PauseQueue("q", true));

        assertThat(broker.view().mayDeliver("q", null, "g")).isFalse();
        assertThat(broker.view().mayDeliver("nowhere", null, "g")).isFalse();
    }

    private void pushOneEach(String payload) {
        Broker.Item[] items = new Broker.Item[PARTITIONS];
        for (int i = 0; i < PARTITIONS; i++) {
            items[i] = item("q").partition("p-" + i).payload(payload + "-" + i);
        }
        broker.push(items);
    }

    /** Wildcard pops of batch 1, acked one by one, until one delivers nothing: the new message of every partition. */
    private void assertDrainsExactlyTheNewMessages(Broker.Pop pop) {
        List<String> delivered = new ArrayList<>();
        Result.Popped popped;
        while (!(popped = broker.pop(pop)).messages().isEmpty()) {
            delivered.addAll(data(popped));
            assertThat(broker.ack(popped.messages().get(0)).success()).isTrue();
        }
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < PARTITIONS; i++) {
            expected.add("new-" + i);
        }
        assertThat(delivered).hasSize(PARTITIONS);
        assertThat(new HashSet<>(delivered)).isEqualTo(expected);
    }
}
