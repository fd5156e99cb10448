package io.regina.queue;

import io.regina.queue.Result.Delivery;
import io.regina.queue.Result.LeaseExtended;
import io.regina.queue.Result.Popped;
import io.regina.testing.Broker;
import org.junit.jupiter.api.Test;

import static io.regina.testing.Broker.data;
import static io.regina.testing.Options.options;
import static org.assertj.core.api.Assertions.assertThat;

class LeaseTest {

    private final Broker broker = new Broker();

    @Test
    void anExpiredLeaseMakesItsMessagesDeliverableAgainWithTheAttemptCounted() {
        broker.configure("q", options().leaseTime(30));
        broker.push("q", "a", "b");
        Popped first = broker.pop("q", 2);

        broker.advanceSeconds(29);
        assertThat(broker.pop("q").messages()).isEmpty();
        broker.advanceSeconds(1);
        Popped again = broker.pop("q", 2);

        assertThat(data(again)).containsExactly("a", "b");
        assertThat(again.leaseId()).isNotEqualTo(first.leaseId());
        assertThat(again.messages()).extracting(Delivery::attempts).containsExactly(2, 2);
        assertThat(broker.view().partitions("q", 0, 1).get(0).groups().get(0).batchRetries())
                .as("expiry does not bump the retry counter").isZero();
    }

    @Test
    void ackedLeasesDoNotKeepTheirTimersWhileAnUnackedOneStillExpires() {
        broker.configure("q", options().leaseTime(300));
        broker.push(Broker.item("q").partition("held").payload("held"));
        Delivery held = broker.pop(Broker.from("q").partition("held")).messages().get(0);
        for (int i = 0; i < 5_000; i++) {
            broker.push(Broker.item("q").partition("jobs").payload("job" + i));
            broker.ack(broker.pop(Broker.from("q").partition("jobs")).messages().get(0), AckStatus.COMPLETED);
        }
        assertThat(broker.view().leaseCount()).isEqualTo(1);
        assertThat(broker.view().timerCount()).as("dead lease timers are swept, not kept for 300 s")
                .isLessThan(2_100);

        Result.Ticked ticked = broker.advanceSeconds(300).tick();

        assertThat(ticked.expiredLeases()).isEqualTo(1);
        assertThat(data(broker.pop(Broker.from("q").partition("held")))).containsExactly(held.data());
    }

    /**
     * Raft may apply one pop twice: a leader that loses its term fails the entry it had appended, the
     * node sends it again to the new leader, and the new leader commits both. The second copy carries
     * the same lease id; had it taken other partitions under a second lease of that id, the first
     * lease's claim would have had no timer left to expire it, and its partition none to deliver again.
     */
    @Test
    void aPopAppliedTwiceTakesNothingTheSecondTimeAndItsLeaseStillExpires() {
        broker.configure("q", options().leaseTime(5));
        broker.push(Broker.item("q").partition("p1").payload("a"), Broker.item("q").partition("p2").payload("b"));
        Command.Pop pop = Broker.from("q").build("lease-1");

        Popped first = broker.apply(pop, Popped.class);
        Popped again = broker.apply(pop, Popped.class);

        assertThat(data(first)).containsExactly("a");
        assertThat(again.messages()).as("the copy takes nothing under a lease id already held").isEmpty();
        Popped other = broker.pop("q");
        assertThat(data(other)).containsExactly("b");
        broker.ack(other.messages().get(0), AckStatus.COMPLETED);
        broker.advanceSeconds(5);
        assertThat(data(broker.pop("q"))).as("the first copy's lease expired and gave its message back")
                .containsExactly("a");
    }

    @Test
    void aTickExpiresLeasesOfAnIdleQueue() {
        broker.configure("q", options().leaseTime(10));
        broker.push("q", "a");
        broker.pop("q");
        assertThat(broker.view().leaseCount()).isEqualTo(1);

        Result.Ticked ticked = broker.advanceSeconds(10).tick();

        assertThat(ticked.expiredLeases()).isEqualTo(1);
        assertThat(broker.view().leaseCount()).isZero();
        assertThat(broker.view().mayDeliver("q", null, null)).isTrue();
        assertThat(broker.view().depth("q", null).pending()).isEqualTo(1);
    }

    @Test
    void attemptsCountEveryDeliveryAcrossExpiriesAndFailures() {
        broker.configure("q", options().leaseTime(10).retryLimit(5));
        broker.push("q", "a");

        assertThat(broker.pop("q").messages().get(0).attempts()).isEqualTo(1);
        broker.advanceSeconds(10);
        Delivery second = broker.pop("q").messages().get(0);
        assertThat(second.attempts()).isEqualTo(2);
        broker.ack(second, AckStatus.FAILED);
        Delivery third = broker.pop("q").messages().get(0);
        assertThat(third.attempts()).isEqualTo(3);
        broker.ack(third, AckStatus.RETRY);
        assertThat(broker.pop("q").messages().get(0).attempts()).isEqualTo(3);
    }

    @Test
    void extendTakesTheLaterOfTheCurrentExpiryAndNowPlusSeconds() {
        broker.configure("q", options().leaseTime(100));
        broker.push("q", "a");
        Popped popped = broker.pop("q");
        long expiry = broker.now() + 100_000;

        LeaseExtended shorter = broker.apply(new Command.ExtendLease(popped.leaseId(), 60), LeaseExtended.class);
        assertThat(shorter.success()).isTrue();
        assertThat(shorter.expiresAt()).isEqualTo(expiry);

        broker.advanceSeconds(90);
        LeaseExtended longer = broker.apply(new Command.ExtendLease(popped.leaseId(), 60), LeaseExtended.class);
        assertThat(longer.expiresAt()).isEqualTo(broker.now() + 60_000);

        broker.advanceSeconds(59);
        assertThat(broker.pop("q").messages()).as("still leased").isEmpty();
        assertThat(broker.ack(popped.messages().get(0)).success()).isTrue();
    }

    @Test
    void extendCoversEveryPartitionOfTheLease() {
        broker.configure("q", options().leaseTime(10));
        broker.push(Broker.item("q").partition("p1"), Broker.item("q").partition("p2"));
        Popped popped = broker.pop(Broker.from("q").partitions(2).batch(2));

        broker.apply(new Command.ExtendLease(popped.leaseId(), 60));
        broker.advanceSeconds(30).tick();

        assertThat(broker.pop(Broker.from("q").partitions(2).batch(2)).messages()).isEmpty();
        assertThat(broker.view().leaseCount()).isEqualTo(1);
    }

    @Test
    void extendOfAnUnknownLeaseIsNotFound() {
        LeaseExtended result = broker.apply(new Command.ExtendLease("nope", 60), LeaseExtended.class);

        assertThat(result.success()).isFalse();
        assertThat(result.error()).isEqualTo("Lease not found");
    }

    @Test
    void extendOfAnExpiredLeaseFails() {
        broker.configure("q", options().leaseTime(10));
        broker.push("q", "a");
        Popped popped = broker.pop("q");
        broker.advanceSeconds(10);

        LeaseExtended result = broker.apply(new Command.ExtendLease(popped.leaseId(), 60), LeaseExtended.class);

        assertThat(result.success()).isFalse();
        // The expiry fires before the command applies, so the lease is already gone.
        assertThat(result.error()).isIn("Lease already expired", "Lease not found");
    }

    @Test
    void extendOfALeaseWhoseMessagesWereAllAckedFails() {
        broker.push("q", "a");
        Popped popped = broker.pop("q");
        broker.ack(popped.messages().get(0));

        LeaseExtended result = broker.apply(new Command.ExtendLease(popped.leaseId(), 60), LeaseExtended.class);

        assertThat(result.success()).isFalse();
    }
}
