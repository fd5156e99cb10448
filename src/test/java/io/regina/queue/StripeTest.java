package io.regina.queue;

import io.regina.queue.Result.PushOutcome;
import io.regina.queue.Result.PushStatus;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.regina.testing.Broker.from;
import static io.regina.testing.Broker.item;
import static io.regina.testing.Options.options;
import static org.assertj.core.api.Assertions.assertThat;

class StripeTest {

    private final Broker broker = new Broker();

    @Test
    void pushesWithoutAPartitionSpreadEvenlyOverTheStripes() {
        broker.configure("jobs", options().stripes(8));
        List<Broker.Item> items = new ArrayList<>();
        for (int i = 0; i < 8_000; i++) {
            items.add(item("jobs"));
        }

        broker.push(items.toArray(Broker.Item[]::new));

        Map<String, Long> perStripe = broker.view().partitions("jobs", 0, 100).stream()
                .filter(p -> p.messages() > 0)
                .collect(Collectors.toMap(Views.PartitionView::name, Views.PartitionView::messages));
        assertThat(perStripe.keySet()).containsExactlyInAnyOrder("stripe-0", "stripe-1", "stripe-2", "stripe-3",
                "stripe-4", "stripe-5", "stripe-6", "stripe-7");
        assertThat(perStripe.values()).allSatisfy(count -> assertThat(count).isBetween(800L, 1_200L));
    }

    @Test
    void aNamedPartitionIsNotStriped() {
        broker.configure("jobs", options().stripes(4));

        PushOutcome outcome = broker.push(item("jobs").partition("vip")).outcomes().get(0);

        assertThat(outcome.partitionId()).isEqualTo(Ids.named("partition", "jobs", "vip"));
    }

    @Test
    void theSameTransactionIdDeduplicatesAcrossTheStripedQueue() {
        broker.configure("jobs", options().stripes(16));
        broker.push(item("jobs").tx("once").messageId("m1"));

        PushOutcome again = broker.push(item("jobs").tx("once")).outcomes().get(0);

        assertThat(again.status()).isEqualTo(PushStatus.DUPLICATE);
        assertThat(again.messageId()).isEqualTo("m1");
    }

    @Test
    void aWildcardPopFindsAReadyStripeAndWorkersRunStripesAtOnce() {
        broker.configure("jobs", options().stripes(4));
        for (int i = 0; i < 40; i++) {
            broker.push(item("jobs"));
        }

        List<Result.Popped> workers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            workers.add(broker.pop("jobs"));
        }

        assertThat(workers).allSatisfy(p -> assertThat(p.messages()).hasSize(1));
        assertThat(workers).extracting(Result.Popped::partition).doesNotHaveDuplicates()
                .allSatisfy(name -> assertThat(name).startsWith("stripe-"));
        assertThat(broker.pop("jobs").messages()).as("every stripe is leased").isEmpty();
    }

    @Test
    void aWildcardPopSkipsLeasedAndEmptyStripes() {
        broker.configure("jobs", options().stripes(64));
        broker.push(item("jobs").tx("a"), item("jobs").tx("b"));
        Result.Popped first = broker.pop(from("jobs"));

        Result.Popped second = broker.pop(from("jobs"));

        if (first.partition().equals(second.partition())) {
            throw new AssertionError("the same stripe was leased twice");
        }
        assertThat(second.messages()).as("b went to another stripe than a").hasSize(1);
        assertThat(broker.pop(from("jobs")).messages()).isEmpty();
    }

    @Test
    void aJobPushedWhileOneIsWorkedOnGoesToAnIdleStripeSoAnIdleWorkerTakesItAtOnce() {
        broker.configure("jobs", options().stripes(4));
        for (int round = 0; round < 50; round++) {
            broker.push(item("jobs").tx("busy-" + round));
            Result.Popped busy = broker.pop(from("jobs"));
            broker.push(item("jobs").tx("next-" + round));

            Result.Popped next = broker.pop(from("jobs"));

            assertThat(next.messages()).as("round %d: not behind the leased stripe %s", round, busy.partition())
                    .hasSize(1);
            assertThat(next.partition()).isNotEqualTo(busy.partition());
            broker.ack(busy.messages().get(0), AckStatus.COMPLETED);
            broker.ack(next.messages().get(0), AckStatus.COMPLETED);
        }
    }

    @Test
    void dedupAcrossTheStripesHoldsAfterASnapshotReloadAndInATransaction() {
        broker.configure("jobs", options().stripes(16));
        for (int i = 0; i < 20; i++) {
            broker.push(item("jobs").tx("t" + i));
        }
        broker.reload();

        for (int i = 0; i < 20; i++) {
            assertThat(broker.push(item("jobs").tx("t" + i)).outcomes().get(0).status())
                    .as("t%d after the reload", i).isEqualTo(PushStatus.DUPLICATE);
        }
        Result.TransactionDone tx = broker.apply(new Command.Transaction(List.of(new Command.TxPush(
                broker.pushItems(item("jobs").tx("t7")))), List.of()), Result.TransactionDone.class);
        assertThat(tx.success()).as("a duplicate push fails the transaction").isFalse();
        assertThat(broker.view().depth("jobs", null).pending()).isEqualTo(20);
    }
}
