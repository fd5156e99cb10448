package io.regina.queue;

import io.regina.queue.Result.Popped;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.regina.testing.Broker.data;
import static io.regina.testing.Broker.item;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A group's ready partitions (issues 8 and 9): a wildcard pop takes the partition that became ready
 * first, the view counts what is ready, and a partition re-enters at the back when its lease ends.
 */
class ReadyPartitionsTest {

    private static final int PARTITIONS = 5_000;

    private final Broker broker = new Broker();

    @Test
    void wildcardPopsTakeFiveThousandPartitionsInTheOrderTheyBecameReady() {
        pushOneEach();
        assertThat(broker.view().readyPartitions("q", null)).isEqualTo(PARTITIONS);

        List<String> order = new ArrayList<>();
        for (int i = 0; i < PARTITIONS; i++) {
            Popped popped = broker.pop("q");
            order.add(popped.partition());
            assertThat(broker.view().readyPartitions("q", null)).isEqualTo(PARTITIONS - 1 - i);
        }

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < PARTITIONS; i++) {
            expected.add("p-" + i);
        }
        assertThat(order).isEqualTo(expected);
        assertThat(broker.view().mayDeliver("q", null, null)).isFalse();
        assertThat(broker.pop("q").messages()).isEmpty();
    }

    @Test
    void aLeasedPartitionIsReadyAgainOnlyWhenItsLeaseEnds() {
        pushOneEach();
        List<Popped> leased = new ArrayList<>();
        for (int i = 0; i < PARTITIONS; i++) {
            leased.add(broker.pop("q"));
        }
        broker.push(item("q").partition("p-3").payload("second-3"), item("q").partition("p-1").payload("second-1"));

        assertThat(broker.view().readyPartitions("q", null)).as("both are leased").isZero();
        broker.ack(leased.get(1).messages().get(0));

        assertThat(broker.view().readyPartitions("q", null)).isEqualTo(1);
        assertThat(data(broker.pop("q"))).containsExactly("second-1");
        broker.ack(leased.get(3).messages().get(0));
        assertThat(data(broker.pop("q"))).containsExactly("second-3");
    }

    @Test
    void aPartitionWhoseLeaseEndsGoesToTheBackOfTheLine() {
        broker.push(item("q").partition("a").payload("a1"), item("q").partition("a").payload("a2"),
                item("q").partition("b").payload("b1"), item("q").partition("c").payload("c1"));

        broker.ack(broker.pop("q").messages().get(0));

        assertThat(data(broker.pop("q"))).containsExactly("b1");
        assertThat(data(broker.pop("q"))).containsExactly("c1");
        assertThat(data(broker.pop("q"))).containsExactly("a2");
    }

    private void pushOneEach() {
        Broker.Item[] items = new Broker.Item[PARTITIONS];
        for (int i = 0; i < PARTITIONS; i++) {
            items[i] = item("q").partition("p-" + i).payload("m-" + i);
        }
        broker.push(items);
    }
}
