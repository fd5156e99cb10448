package io.regina.worker.supervisor;

import io.regina.client.Ack;
import io.regina.client.AckStatus;
import io.regina.client.Job;
import io.regina.client.Message;
import io.regina.client.PopOptions;
import io.regina.client.Popped;
import io.regina.client.ReginaClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How the autoscaling supervisors of one queue and group find each other, with nothing but the broker's own
 * leases: a registry queue {@value #PREFIX}{@code <queue>} whose partitions {@code slot-0}, {@code slot-1}…
 * hold one message each. A supervisor pops one slot (read as that group) under a lease of
 * {@value #LEASE_SECONDS} s and renews it; it never acks the message, so the slot stays.
 *
 * <ul>
 * <li>The live count is the registry's {@code leased} depth: one leased message per live supervisor.</li>
 * <li>A supervisor that dies stops renewing; its lease expires and the slot is free for the next one.</li>
 * <li>A stop hands the slot back at once ({@code retry}, uncharged).</li>
 * <li>Each takes the lowest free slot, and moves down when a lower one frees up, so the live slots are
 *     {@code 0 … n-1} and a slot's index is its holder's rank ({@link Membership}).</li>
 * </ul>
 *
 * A slot is created by pushing its message with transactionId {@code slot-i}: a second push of the same slot
 * is a duplicate, so supervisors racing to create it make one.
 */
final class SupervisorRegistry {
    static final String PREFIX = "regina-supervisors.";
    static final int LEASE_SECONDS = 10;
    /** More supervisors of one queue than this is a mistake, not a deployment. */
    static final int MOST_SLOTS = 256;

    private record Slot(int index, Message message) {
    }

    private final ReginaClient client;
    private final String queue;
    private final String group;
    private Slot held;

    SupervisorRegistry(ReginaClient client, String workQueue, String group) {
        this.client = client;
        this.queue = PREFIX + workQueue;
        this.group = group;
    }

    String queue() {
        return queue;
    }

    /**
     * Keeps this supervisor's slot (renewed, taken again if it was lost, moved down if a lower one is free)
     * and answers its place among the live ones.
     */
    Membership refresh() {
        if (held != null && !client.extendLease(held.message().leaseId(), LEASE_SECONDS).success()) {
            held = null;
        }
        if (held == null) {
            held = claimLowest(MOST_SLOTS);
            if (held == null) {
                throw new IllegalStateException("every one of the " + MOST_SLOTS + " slots of " + queue + " is held");
            }
        } else if (held.index() > 0 && lowerFree(held.index())) {
            Slot lower = claimLowest(held.index());
            if (lower != null) {
                release(held);
                held = lower;
            }
        }
        long live = Math.max(1, client.depth(queue, group).leased());
        return new Membership((int) Math.min(held.index(), live - 1), (int) live);
    }

    /** The slot this supervisor holds now, or -1. */
    int slot() {
        return held == null ? -1 : held.index();
    }

    /** Hands the slot back, so the others count one fewer at once instead of after its lease. */
    void leave() {
        if (held != null) {
            release(held);
            held = null;
        }
    }

    private Slot claimLowest(int below) {
        for (int i = 0; i < below; i++) {
            String name = name(i);
            client.push(Job.of(queue, client.json().createObjectNode().put("slot", i)).partition(name)
                    .transactionId(name));
            Popped popped = client.pop(queue, PopOptions.defaults().partition(name).consumerGroup(group)
                    .leaseSeconds(LEASE_SECONDS));
            if (!popped.isEmpty()) {
                return new Slot(i, popped.messages().get(0));
            }
        }
        return null;
    }

    private boolean lowerFree(int index) {
        List<String> lower = new ArrayList<>();
        for (int i = 0; i < index; i++) {
            lower.add(name(i));
        }
        return client.watch(queue, group, lower, Duration.ZERO).deliverable();
    }

    private void release(Slot slot) {
        Message m = slot.message();
        client.ack(new Ack(m.transactionId(), m.partitionId(), AckStatus.RETRY, null, group, m.leaseId(), null, null));
    }

    private static String name(int index) {
        return "slot-" + index;
    }
}
