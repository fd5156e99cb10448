package io.regina.dashboard;

import io.regina.queue.AckStatus;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
import io.regina.queue.SubscriptionMode;

import java.util.List;
import java.util.UUID;

/** Test builders: messages that fail for good on an in-memory bus. */
final class FailedJobs {
    static final String QUEUE_MODE = "__QUEUE_MODE__";

    private FailedJobs() {
    }

    static String push(CommandBus bus, String queue, String payload) {
        String id = UUID.randomUUID().toString();
        bus.submit(new Command.Push(List.of(new Command.PushItem(queue, null, id, id, payload, null, null, 0, 0))))
                .join();
        return id;
    }

    /** Pushes one message, pops it and acks it {@code dlq}: it becomes a failed-job row. */
    static String aFailedJob(CommandBus bus, String queue, String payload, String error) {
        String messageId = push(bus, queue, payload);
        Result.Popped popped = (Result.Popped) bus.submit(new Command.Pop(queue, null, QUEUE_MODE, 1,
                UUID.randomUUID().toString(), false, SubscriptionMode.ALL, 0, 1)).join();
        Result.Delivery delivery = popped.messages().get(0);
        bus.submit(new Command.Ack(List.of(new Command.AckItem(delivery.transactionId(), delivery.partitionId(),
                AckStatus.DLQ, error, QUEUE_MODE, delivery.leaseId(), 0)))).join();
        return bus.read(s -> s.failedJobs().list(queue, null, 0, 0, 1000, null).items().stream()
                .filter(row -> row.messageId().equals(messageId)).findFirst().orElseThrow().uuid());
    }
}
