package io.regina.queue;

import io.regina.queue.Result.Delivery;
import io.regina.testing.Broker;
import io.regina.testing.Snapshots;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.regina.testing.Broker.ackOf;
import static io.regina.testing.Broker.item;
import static org.assertj.core.api.Assertions.assertThat;

/** A snapshot's failed rows are written after the capture, off the lock: the image is still the state at the capture. */
class SnapshotCaptureTest {

    private final Broker broker = new Broker();

    private void fail(String queue, String payload) {
        broker.advanceSeconds(1);
        broker.push(item(queue).payload(payload));
        Delivery delivery = broker.pop(queue).messages().get(0);
        broker.ack(ackOf(delivery).status(AckStatus.DLQ).error("PaymentGatewayTimeout (" + payload + ")"));
    }

    @Test
    void rowsFailedRetriedOrFlushedAfterTheCaptureAreNotInTheImage() {
        fail("q1", "{\"order\":1}");
        fail("q2", "{\"order\":2}");
        fail("q1", "{\"order\":3}");
        byte[] atCapture = Snapshots.bytes(broker.state());
        String oldest = broker.view().failedJobs().list(null, null, 0, 0, 3, null).items().get(2).uuid();

        byte[] captured = Snapshots.captured(broker.state(), () -> {
            fail("q2", "{\"order\":4}");
            broker.apply(new Command.RetryFailedJobs(new FailedJobSelector.Ids(List.of(oldest)), 1));
            broker.apply(new Command.RemoveFailedJobs(0, "q2", false, 10));
        });

        assertThat(broker.view().failedJobs().size()).as("the applies happened").isEqualTo(1);
        assertThat(captured).isEqualTo(atCapture);
        assertThat(Snapshots.read(captured).view().failedJobs().size()).isEqualTo(3);
    }
}
