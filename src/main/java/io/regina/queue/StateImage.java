package io.regina.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Writes the whole {@link BrokerState} to a {@link StateWriter} and reads it back. The layout is
 * versioned; timers are not written but rebuilt from the leases, delayed messages and re-checks
 * they stand for, which fires them in the same order because the heap orders by stable keys.
 */
final class StateImage {

    static final int LAYOUT_VERSION = 1;

    private StateImage() {
    }

    static void write(BrokerState state, StateWriter out) {
        capture(state, out).accept(out);
    }

    /**
     * Writes the image up to the failed-jobs rows and answers what writes the rows after it: they are
     * immutable records, so holding them in an array is a copy of the state that no later apply changes,
     * and the bulk of a large image (a million rows are ~330 MB) can be written off the lock. The bytes
     * are the same as {@link #write}'s.
     */
    static Consumer<StateWriter> capture(BrokerState state, StateWriter out) {
        out.writeInt(LAYOUT_VERSION);
        out.writeLong(state.lastNow);
        out.writeLong(state.nextPendingSeq);
        out.writeBoolean(state.maintenanceMode);
        out.writeBoolean(state.popMaintenanceMode);
        out.writeInt(state.buffered.size());
        for (Command.PushItem item : state.buffered) {
            item.writeTo(out);
        }
        out.writeInt(state.groupSubscriptions.size());
        state.groupSubscriptions.forEach((group, at) -> {
            out.writeString(group);
            out.writeLong(at);
        });
        out.writeInt(state.traces.size());
        for (BrokerState.Trace trace : state.traces) {
            out.writeString(trace.traceId());
            out.writeString(trace.transactionId());
            out.writeString(trace.partitionId());
            out.writeString(trace.consumerGroup());
            out.writeInt(trace.traceNames().size());
            trace.traceNames().forEach(out::writeString);
            out.writeString(trace.eventType());
            out.writeString(trace.data());
            out.writeLong(trace.createdAt());
        }
        out.writeInt(state.queues.size());
        for (BrokerQueue queue : state.queues.values()) {
            writeQueue(state, out, queue);
        }
        out.writeInt(state.leases.size());
        for (Lease lease : state.leases.values()) {
            out.writeString(lease.id);
            out.writeString(lease.queue);
            out.writeString(lease.group);
            out.writeLong(lease.expiresAt);
            out.writeInt(lease.claims.size());
            for (Claim claim : lease.claims) {
                out.writeString(claim.cursor.partition.name);
                writeLongs(out, claim.seqs());
                writeLongs(out, claim.resolvedSeqs());
            }
        }
        FailedJob[] rows = state.failedJobs.all().toArray(new FailedJob[0]);
        out.writeInt(rows.length);
        return rest -> {
            for (FailedJob row : rows) {
                writeRow(rest, row);
            }
        };
    }

    private static void writeRow(StateWriter out, FailedJob row) {
        out.writeString(row.uuid());
        out.writeString(row.queue());
        out.writeString(row.partition());
        out.writeString(row.partitionId());
        out.writeString(row.consumerGroup());
        out.writeString(row.messageId());
        out.writeString(row.transactionId());
        out.writeString(row.traceId());
        out.writeString(row.data());
        out.writeString(row.error());
        out.writeInt(row.attempts());
        out.writeString(row.producerSub());
        out.writeLong(row.createdAt());
        out.writeLong(row.failedAt());
        out.writeString(row.retryOf());
    }

    private static void writeQueue(BrokerState state, StateWriter out, BrokerQueue queue) {
        out.writeString(queue.name);
        out.writeString(queue.namespace);
        out.writeString(queue.task);
        queue.options.writeTo(out);
        out.writeBoolean(queue.paused);
        out.writeInt(queue.partitions.size());
        for (Partition partition : queue.partitions.values()) {
            out.writeString(partition.name);
            out.writeLong(partition.log.headSeq());
            out.writeInt(partition.log.size());
            for (Message message : partition.log.entries()) {
                out.writeString(message.id());
                out.writeString(message.transactionId());
                out.writeString(message.traceId);
                out.writeString(message.producerSub);
                state.bodies.writeTo(message.bodyRef, out);
                out.writeLong(message.createdAt);
                out.writeLong(message.appendedAt);
                out.writeString(message.onlyGroup);
                out.writeInt(message.baseAttempts);
                out.writeString(message.retryOf);
            }
        }
        out.writeInt(queue.delayed.size());
        for (DelayedMessage waiting : queue.delayed.values()) {
            out.writeLong(waiting.pendingSeq);
            out.writeString(waiting.partition.name);
            out.writeString(waiting.id);
            out.writeString(waiting.transactionId);
            out.writeString(waiting.traceId);
            out.writeString(waiting.producerSub);
            state.bodies.writeTo(waiting.bodyRef, out);
            out.writeLong(waiting.createdAt);
            out.writeLong(waiting.dueAt);
            out.writeString(waiting.onlyGroup);
            out.writeInt(waiting.baseAttempts);
            out.writeString(waiting.retryOf);
        }
        out.writeInt(queue.groups.size());
        for (Group group : queue.groups.values()) {
            out.writeString(group.name);
            out.writeLong(group.subscribedAt);
            out.writeInt(group.cursors.size());
            for (Cursor cursor : group.cursors.values()) {
                out.writeString(cursor.partition.name);
                out.writeLong(cursor.next);
                writeLongs(out, cursor.doneAheadSeqs());
                Map<Long, Integer> deliveries = cursor.deliveryCounts();
                out.writeInt(deliveries.size());
                deliveries.forEach((seq, count) -> {
                    out.writeLong(seq);
                    out.writeInt(count);
                });
                out.writeInt(cursor.batchRetries);
                out.writeLong(cursor.recheckAt);
            }
            out.writeInt(group.ready.size());
            for (Cursor cursor : group.ready) {
                out.writeString(cursor.partition.name);
            }
        }
    }

    static BrokerState read(StateReader in) {
        int layout = in.readInt();
        if (layout != LAYOUT_VERSION) {
            throw new IllegalArgumentException("unknown broker state layout version " + layout
                    + " (this node reads version " + LAYOUT_VERSION + ")");
        }
        BrokerState state = new BrokerState();
        state.lastNow = in.readLong();
        state.nextPendingSeq = in.readLong();
        state.maintenanceMode = in.readBoolean();
        state.popMaintenanceMode = in.readBoolean();
        for (int i = in.readInt(); i > 0; i--) {
            state.buffered.add(Command.PushItem.readFrom(in));
        }
        for (int i = in.readInt(); i > 0; i--) {
            state.groupSubscriptions.put(in.readString(), in.readLong());
        }
        for (int i = in.readInt(); i > 0; i--) {
            String traceId = in.readString();
            String transactionId = in.readString();
            String partitionId = in.readString();
            String group = in.readString();
            List<String> names = new ArrayList<>();
            for (int n = in.readInt(); n > 0; n--) {
                names.add(in.readString());
            }
            state.traces.add(new BrokerState.Trace(traceId, transactionId, partitionId, group, List.copyOf(names),
                    in.readString(), in.readString(), in.readLong()));
        }
        for (int i = in.readInt(); i > 0; i--) {
            readQueue(state, in);
        }
        for (int i = in.readInt(); i > 0; i--) {
            Lease lease = new Lease(in.readString(), in.readString(), in.readString(), in.readLong());
            BrokerQueue queue = state.queues.get(lease.queue);
            Group group = queue.groups.get(lease.group);
            for (int c = in.readInt(); c > 0; c--) {
                Cursor cursor = group.cursors.get(in.readString());
                Claim claim = new Claim(lease, cursor);
                long[] held = readLongs(in).stream().mapToLong(Long::longValue).toArray();
                claim.hold(held, held.length);
                for (long seq : readLongs(in)) {
                    claim.resolve(seq);
                }
                cursor.claim = claim;
                cursor.recount();
                lease.claims.add(claim);
            }
            state.leases.put(lease.id, lease);
            state.timers.schedule(lease.expiresAt, Timers.Kind.LEASE, lease.id, 0, lease);
        }
        for (int i = in.readInt(); i > 0; i--) {
            state.failedJobs.add(new FailedJob(in.readString(), in.readString(), in.readString(), in.readString(),
                    in.readString(), in.readString(), in.readString(), in.readString(), in.readString(),
                    in.readString(), in.readInt(), in.readString(), in.readLong(), in.readLong(), in.readString()));
        }
        return state;
    }

    private static void readQueue(BrokerState state, StateReader in) {
        String name = in.readString();
        String namespace = in.readString();
        String task = in.readString();
        BrokerQueue queue = new BrokerQueue(name, namespace, task, QueueOptions.readFrom(in));
        queue.paused = in.readBoolean();
        state.queues.put(name, queue);
        for (int p = in.readInt(); p > 0; p--) {
            String partitionName = in.readString();
            long headSeq = in.readLong();
            Partition partition = new Partition(queue, partitionName, headSeq);
            int count = in.readInt();
            for (int m = 0; m < count; m++) {
                Message message = new Message(headSeq + m, partition, in.readString(), in.readString(),
                        in.readString(), in.readString(), state.bodies.put(in.readString()), in.readLong(),
                        in.readLong(), in.readString(), in.readInt(), in.readString());
                partition.log.append(message);
                partition.transactions.put(message);
                if (partition.isStripe()) {
                    queue.stripeTransactions.put(message);
                }
            }
            queue.storedMessages += count;
            queue.partitions.put(partitionName, partition);
            state.partitionsById.put(partition.id, partition);
        }
        for (int d = in.readInt(); d > 0; d--) {
            long pendingSeq = in.readLong();
            Partition partition = queue.partitions.get(in.readString());
            String id = in.readString();
            DelayedMessage waiting = new DelayedMessage(pendingSeq, partition, id, Ids.sharedWith(id, in.readString()),
                    in.readString(), in.readString(), state.bodies.put(in.readString()), in.readLong(), in.readLong(),
                    in.readString(), in.readInt(), in.readString());
            queue.delayed.put(waiting);
            queue.storedMessages++;
            partition.holdDelayed(waiting.transactionId, waiting.id);
            if (partition.isStripe()) {
                queue.delayedStripeOfTransaction.put(waiting.transactionId, partition);
            }
            state.timers.schedule(waiting.dueAt, Timers.Kind.DELAYED, "", pendingSeq, waiting);
        }
        for (int g = in.readInt(); g > 0; g--) {
            Group group = new Group(in.readString(), queue, in.readLong());
            queue.groups.put(group.name, group);
            for (int c = in.readInt(); c > 0; c--) {
                Partition partition = queue.partitions.get(in.readString());
                Cursor cursor = new Cursor(partition, group, in.readLong());
                cursor.restoreDoneAhead(readLongs(in));
                for (int d = in.readInt(); d > 0; d--) {
                    cursor.countDeliveries(in.readLong(), in.readInt());
                }
                cursor.batchRetries = in.readInt();
                cursor.recheckAt = in.readLong();
                if (cursor.recheckAt > 0) {
                    state.timers.schedule(cursor.recheckAt, Timers.Kind.RECHECK,
                            queue.name + "\u0000" + partition.name + "\u0000" + group.name, 0, cursor);
                }
                group.cursors.put(partition.name, cursor);
                cursor.recount();
            }
            for (int r = in.readInt(); r > 0; r--) {
                group.ready.add(group.cursors.get(in.readString()));
            }
        }
    }

    private static void writeLongs(StateWriter out, List<Long> values) {
        out.writeInt(values.size());
        values.forEach(out::writeLong);
    }

    private static void writeLongs(StateWriter out, long[] values) {
        out.writeInt(values.length);
        for (long value : values) {
            out.writeLong(value);
        }
    }

    private static List<Long> readLongs(StateReader in) {
        int count = in.readInt();
        List<Long> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            values.add(in.readLong());
        }
        return values;
    }

}
