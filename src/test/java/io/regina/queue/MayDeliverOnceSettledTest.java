package io.regina.queue;

import io.regina.queue.Result.Delivery;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.regina.testing.Broker.from;
import static io.regina.testing.Broker.item;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hint a pop made in an ack's entry goes by ({@code NextPops}): every partition leased, the pop still finds
 * one once the ack settles a claim, if that claim's partition holds more; and never a partition the pop could
 * not take.
 */
class MayDeliverOnceSettledTest {

    private final Broker broker = new Broker();

    @Test
    void aLeasedPartitionWithMoreToDeliverCountsOnceItsClaimIsSettled() {
        broker.push(item("q").partition("a").payload("\"a1\""), item("q").partition("a").payload("\"a2\""),
                item("q").partition("b").payload("\"b1\""));
        Delivery a1 = broker.pop("q").messages().get(0);
        Delivery b1 = broker.pop("q").messages().get(0);
        assertThat(broker.view().mayDeliver("q", null, null)).as("both partitions leased").isFalse();

        assertThat(broker.view().mayDeliverOnceSettled("q", null, null, Set.of(a1.partitionId()))).isTrue();
        assertThat(broker.view().mayDeliverOnceSettled("q", null, null, Set.of(b1.partitionId())))
                .as("b holds nothing more").isFalse();
        assertThat(broker.view().mayDeliverOnceSettled("q", "a", null, Set.of(a1.partitionId()))).isTrue();
        assertThat(broker.view().mayDeliverOnceSettled("q", "b", null, Set.of(a1.partitionId())))
                .as("a pop of partition b cannot take a's next").isFalse();
        assertThat(broker.view().mayDeliverOnceSettled("other", null, null, Set.of(a1.partitionId())))
                .as("another queue's pop").isFalse();
    }

    @Test
    void aPausedQueueOrAnotherGroupsCursorDeliversNothingOnceSettled() {
        broker.push(item("q").payload("\"m1\""), item("q").payload("\"m2\""));
        Delivery m1 = broker.pop("q").messages().get(0);
        assertThat(broker.pop(from("q").group("g").batch(2)).messages()).hasSize(2);
        assertThat(broker.view().mayDeliverOnceSettled("q", null, "g", Set.of(m1.partitionId())))
                .as("group g holds both").isFalse();
        assertThat(broker.view().mayDeliverOnceSettled("q", null, null, Set.of(m1.partitionId()))).isTrue();

        broker.apply(new Command.PauseQueue("q", true));
        assertThat(broker.view().mayDeliverOnceSettled("q", null, null, List.of(m1.partitionId()))).isFalse();
    }
}
