package io.regina.dashboard;

import io.regina.queue.AckStatus;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
import io.regina.queue.SubscriptionMode;
import io.regina.queue.Utf8Text;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Test builders: messages that fail for good on an in-memory bus. */
final class FailedJobs {
    static final String QUEUE_MODE = "__QUEUE_MODE__";

    private FailedJobs() {
    }

    static String push(CommandBus bus, String queue, String payload) {
        String id = UUID.randomUUID().toString();
        bus.submit(new Command.Push(List.of(new Command.PushItem(queue, null, id, id, Utf8Text.of(payload), null, null, 0, 0))))
                .join();
        return id;
    }

    /** Pushes one message, pops it and acks it {@code dlq}: it becomes a failed-job row. */
    static String aFailedJob(CommandBus bus, String queue, String payload, String error) {
        String messageId = push(bus, queue, payload);
        deadLetterWaiting(bus, queue, 1, error);
        return bus.read(s -> s.failedJobs().list(queue, null, 0, 0, 1000, null).items().stream()
                .filter(row -> row.messageId().equals(messageId)).findFirst().orElseThrow().uuid());
    }

    /** {@code count} failed-job rows of payload {@code {}}, in three commands: push, pop and ack them all. */
    static void manyFailedJobs(CommandBus bus, String queue, int count, String error) {
        List<Command.PushItem> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = UUID.randomUUID().toString();
            items.add(new Command.PushItem(queue, null, id, id, Utf8Text.of("{}"), null, null, 0, 0));
        }
        bus.submit(new Command.Push(items)).join();
        deadLetterWaiting(bus, queue, count, error);
    }

    /** Pops the oldest {@code count} waiting messages and dead-letters them with {@code error}. */
    private static void deadLetterWaiting(CommandBus bus, String queue, int count, String error) {
        Result.Popped popped = (Result.Popped) bus.submit(new Command.Pop(queue, null, QUEUE_MODE, count,
                UUID.randomUUID().toString(), false, SubscriptionMode.ALL, 0, 1)).join();
        List<Command.AckItem> acks = new ArrayList<>();
        for (Result.Delivery delivery : popped.messages()) {
            acks.add(new Command.AckItem(delivery.transactionId(), delivery.partitionId(), AckStatus.DLQ, error,
                    QUEUE_MODE, delivery.leaseId(), 0));
        }
        bus.submit(new Command.Ack(acks)).join();
    }
}
