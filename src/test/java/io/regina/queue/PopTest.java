package io.regina.queue;

import io.regina.queue.Result.Delivery;
import io.regina.queue.Result.Popped;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import static io.regina.testing.Broker.data;
import static io.regina.testing.Broker.from;
import static io.regina.testing.Broker.item;
import static io.regina.testing.Options.options;
import static org.assertj.core.api.Assertions.assertThat;

class PopTest {

    private final Broker broker = new Broker();

    @Test
    void popOfAnUnknownOrEmptyQueueDeliversNothing() {
        assertThat(broker.pop("nowhere").messages()).isEmpty();
        broker.configure("q");
        assertThat(broker.pop("q").messages()).isEmpty();
    }

    @Test
    void popAlwaysDeliversAFullBatchWhenThatManyWait() {
        broker.push("q", "a", "b", "c", "d");

        Popped popped = broker.pop("q", 3);

        assertThat(data(popped)).containsExactly("a", "b", "c");
        assertThat(popped.partition()).isEqualTo("Default");
        assertThat(popped.group()).isEqualTo("__QUEUE_MODE__");
        assertThat(popped.partitionsClaimed()).isEqualTo(1);
        assertThat(popped.messages()).allSatisfy(d -> {
            assertThat(d.leaseId()).isEqualTo(popped.leaseId());
            assertThat(d.attempts()).isEqualTo(1);
        });
    }

    @Test
    void aDeliveryCarriesTheMessagesFields() {
        broker.push(item("q").messageId("m1").tx("t1").traceId("tr").producerSub("alice").payload("{\"x\":1}"));
        long pushedAt = broker.now();
        broker.advance(5);

        Delivery delivery = broker.pop("q").messages().get(0);

        assertThat(delivery.id()).isEqualTo("m1");
        assertThat(delivery.transactionId()).isEqualTo("t1");
        assertThat(delivery.traceId()).isEqualTo("tr");
        assertThat(delivery.producerSub()).isEqualTo("alice");
        assertThat(delivery.data()).isEqualTo("{\"x\":1}");
        assertThat(delivery.createdAt()).isEqualTo(pushedAt);
        assertThat(delivery.partition()).isEqualTo("Default");
        assertThat(delivery.partitionId()).isEqualTo(Ids.named("partition", "q", "Default"));
    }

    @Test
    void oneLeasePerPartitionPerGroupKeepsFifoAcrossWorkers() {
        broker.push("q", "a", "b", "c");

        Popped first = broker.pop("q");
        Popped second = broker.pop("q");

        assertThat(data(first)).containsExactly("a");
        assertThat(second.messages()).isEmpty();
        broker.ack(first.messages().get(0));
        assertThat(data(broker.pop("q"))).containsExactly("b");
    }

    @Test
    void otherPartitionsServeOtherWorkersWhileOneIsLeased() {
        broker.push(item("q").partition("p1").payload("a1"), item("q").partition("p1").payload("a2"),
                item("q").partition("p2").payload("b1"));

        Popped first = broker.pop("q");
        Popped second = broker.pop("q");

        assertThat(data(first)).containsExactly("a1");
        assertThat(data(second)).containsExactly("b1");
        assertThat(broker.pop("q").messages()).isEmpty();
    }

    @Test
    void popOfTheDefaultPartitionIsAWildcardPop() {
        broker.push(item("q").partition("eu").payload("x"));

        Popped popped = broker.pop(from("q").partition("Default"));

        assertThat(data(popped)).containsExactly("x");
        assertThat(popped.partition()).isEqualTo("eu");
    }

    @Test
    void popOfANamedPartitionDeliversOnlyFromIt() {
        broker.push(item("q").partition("a").payload("a1"), item("q").partition("b").payload("b1"));

        assertThat(data(broker.pop(from("q").partition("b").batch(5)))).containsExactly("b1");
        assertThat(broker.pop(from("q").partition("b")).messages()).isEmpty();
        assertThat(broker.pop(from("q").partition("missing")).messages()).isEmpty();
    }

    @Test
    void autoAckMovesTheCursorWithoutALease() {
        broker.push("q", "a", "b");

        Popped popped = broker.pop(from("q").autoAck());

        assertThat(popped.leaseId()).isEmpty();
        assertThat(popped.messages().get(0).leaseId()).isEmpty();
        assertThat(broker.view().leaseCount()).isZero();
        assertThat(data(broker.pop("q"))).containsExactly("b");
        assertThat(broker.view().depth("q", null).size()).isEqualTo(1);
    }

    @Test
    void partitionsAboveOneClaimManyUnderOneLeaseWithBatchAsAGlobalCap() {
        broker.push(item("q").partition("p1").payload("a1"), item("q").partition("p1").payload("a2"),
                item("q").partition("p2").payload("b1"), item("q").partition("p3").payload("c1"));

        Popped popped = broker.pop(from("q").partitions(3).batch(3));

        assertThat(popped.messages()).hasSize(3);
        assertThat(popped.messages()).extracting(Delivery::leaseId).containsOnly(popped.leaseId());
        assertThat(popped.partitionsClaimed()).isEqualTo(2);
        assertThat(data(popped)).containsExactly("a1", "a2", "b1");
        assertThat(broker.view().leaseCount()).isEqualTo(1);
        assertThat(data(broker.pop("q"))).containsExactly("c1");
    }

    @Test
    void partitionsIsIgnoredOnANamedPartitionPop() {
        broker.push(item("q").partition("p1").payload("a"), item("q").partition("p2").payload("b"));

        Popped popped = broker.pop(from("q").partition("p1").partitions(5).batch(5));

        assertThat(data(popped)).containsExactly("a");
        assertThat(popped.partitionsClaimed()).isEqualTo(1);
    }

    @Test
    void aPausedQueueAcceptsPushesAndDeliversNothing() {
        broker.configure("q");
        broker.apply(new Command.PauseQueue("q", true));
        broker.push("q", "a");

        assertThat(broker.pop("q").messages()).isEmpty();
        assertThat(broker.view().mayDeliver("q", null, null)).isFalse();

        broker.apply(new Command.PauseQueue("q", false));
        assertThat(data(broker.pop("q"))).containsExactly("a");
    }

    @Test
    void pauseOfAnUnknownQueueIsNotFound() {
        Result result = broker.apply(new Command.PauseQueue("nowhere", true));

        assertThat(result).isInstanceOfSatisfying(Result.Rejected.class,
                r -> {
                    assertThat(r.rejection()).isEqualTo(Rejection.QUEUE_NOT_FOUND);
                    assertThat(r.message()).isEqualTo("Queue 'nowhere' does not exist");
                });
    }

    @Test
    void popMaintenanceDeliversNothingUntilItEnds() {
        broker.push("q", "a");
        broker.apply(new Command.SetMaintenance(true, true));

        assertThat(broker.pop("q").messages()).isEmpty();

        broker.apply(new Command.SetMaintenance(true, false));
        assertThat(data(broker.pop("q"))).containsExactly("a");
    }

    @Test
    void messagesPushedInOneRequestAreVisibleTogether() {
        broker.push("q", "a", "b", "c");

        assertThat(data(broker.pop("q", 10))).containsExactly("a", "b", "c");
    }

    @Test
    void mayDeliverSaysYesWhenAPopWouldDeliver() {
        broker.configure("q");
        assertThat(broker.view().mayDeliver("q", null, null)).isFalse();

        broker.push("q", "a");

        assertThat(broker.view().mayDeliver("q", null, null)).isTrue();
        assertThat(broker.view().mayDeliver("q", "Default", null)).isTrue();
        assertThat(broker.state().drainDeliverable()).contains("q");
    }
}
