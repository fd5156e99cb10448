package io.regina.faults;

import java.util.ArrayList;
import java.util.List;

/**
 * What a fault lane's clients did and saw, in the order they saw it, as Jepsen's history: each push
 * attempt with its outcome, each delivered message with the lease it came under, each acknowledgement.
 * Times are milliseconds since the history began, on one monotonic clock shared by every client
 * thread (the brokers run on this machine, so their lease clocks agree with it). Thread-safe.
 */
public final class History {

    /** What a push attempt's answer proves. */
    public enum Outcome {
        /** Answered 201 {@code queued} or {@code duplicate}: the message is stored. */
        OK,
        /** Refused (4xx): the message was not stored by this attempt. */
        FAILED,
        /** Timed out, connection lost, 5xx: it may or may not be stored. */
        UNKNOWN
    }

    /** One push request for one message. */
    public record Push(String transactionId, String partition, long invokedAt, long completedAt, Outcome outcome) {
    }

    /** One message in a pop answer, {@code indexInBatch} its place in that answer. */
    public record Delivery(String transactionId, String partition, String group, String leaseId, String node,
            long invokedAt, long receivedAt, int indexInBatch) {
    }

    /** One acknowledgement of one delivered message; {@code success} only when the broker said so. */
    public record Ack(String transactionId, String group, String leaseId, long invokedAt, long completedAt,
            boolean success) {
    }

    private final long origin = System.nanoTime();
    private final List<Push> pushes = new ArrayList<>();
    private final List<Delivery> deliveries = new ArrayList<>();
    private final List<Ack> acks = new ArrayList<>();

    /** Milliseconds since this history began. */
    public long now() {
        return (System.nanoTime() - origin) / 1_000_000;
    }

    public synchronized void push(Push push) {
        pushes.add(push);
    }

    public synchronized void delivered(Delivery delivery) {
        deliveries.add(delivery);
    }

    public synchronized void acked(Ack ack) {
        acks.add(ack);
    }

    public synchronized List<Push> pushes() {
        return List.copyOf(pushes);
    }

    /** Pushes answered {@code queued} that were sent after {@code invokedAfter} and answered before {@code completedBefore}. */
    public synchronized long acknowledgedBetween(long invokedAfter, long completedBefore) {
        return pushes.stream().filter(p -> p.outcome() == Outcome.OK)
                .filter(p -> p.invokedAt() > invokedAfter && p.completedAt() < completedBefore).count();
    }

    public synchronized List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }

    public synchronized List<Ack> acks() {
        return List.copyOf(acks);
    }
}
