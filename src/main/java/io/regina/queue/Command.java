package io.regina.queue;

import java.util.List;

/**
 * Everything that changes the broker's state. A command is applied on every replica in log order
 * by {@link BrokerState#apply(Command, long)}; it carries every id and value apply needs so the
 * outcome is the same everywhere. The byte codes in the {@code raft} codec only grow at the end.
 */
public sealed interface Command {

    /** Applies this command through the handler method made for it. */
    <R> R accept(Handler<R> handler, long now);

    /**
     * What applying each command does, one method per record. Java 17 has no pattern-matching
     * {@code switch} over a sealed interface, so this visitor is the exhaustive dispatch: a new record
     * does not compile until it implements {@code accept}, and its new method here does not compile
     * until {@link BrokerState} (and every other handler) implements it. No command can reach apply
     * unhandled.
     */
    interface Handler<R> {
        R configure(Configure command, long now);

        R deleteQueue(DeleteQueue command, long now);

        R push(Push command, long now);

        R pop(Pop command, long now);

        R ack(Ack command, long now);

        R transaction(Transaction command, long now);

        R extendLease(ExtendLease command, long now);

        R recordTrace(RecordTrace command, long now);

        R deleteGroup(DeleteGroup command, long now);

        R seek(Seek command, long now);

        R setSubscription(SetSubscription command, long now);

        R setMaintenance(SetMaintenance command, long now);

        R tick(Tick command, long now);

        R pauseQueue(PauseQueue command, long now);

        R clearQueue(ClearQueue command, long now);

        R retryFailedJobs(RetryFailedJobs command, long now);

        R retryFailedJob(RetryFailedJob command, long now);

        R forgetFailedJob(ForgetFailedJob command, long now);

        R removeFailedJobs(RemoveFailedJobs command, long now);

        R ackAndPop(AckAndPop command, long now);

        R diskAlarm(DiskAlarm command, long now);
    }

    /** Create a queue or overwrite all of its options. */
    record Configure(String queue, String namespace, String task, QueueOptions options) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.configure(this, now);
        }
    }

    /** Remove a queue with its partitions, messages, cursors, leases and failed jobs. */
    record DeleteQueue(String queue) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.deleteQueue(this, now);
        }
    }

    /** Append messages; queues and partitions are created on first push. */
    record Push(List<PushItem> items) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.push(this, now);
        }
    }

    /**
     * One message to push. {@code partition} null means the queue's default partition or one of its
     * stripes; {@code payload} is JSON text (the literal {@code null} stays null); {@code delayMs}
     * and {@code availableAt} (epoch ms, 0 for none) defer delivery.
     */
    record PushItem(String queue, String partition, String messageId, String transactionId, Utf8Text payload,
                    String traceId, String producerSub, long delayMs, long availableAt) {

        /**
         * Writes every field in declaration order: the layout of a push in log entries (after its
         * presence byte) and of the snapshot's buffered pushes, both frozen.
         */
        public void writeTo(StateWriter out) {
            out.writeString(queue);
            out.writeString(partition);
            out.writeString(messageId);
            out.writeString(transactionId);
            if (payload == null) {
                out.writeString(null);
            } else {
                out.writeUtf8(payload.array(), payload.offset(), payload.length());
            }
            out.writeString(traceId);
            out.writeString(producerSub);
            out.writeLong(delayMs);
            out.writeLong(availableAt);
        }

        public static PushItem readFrom(StateReader in) {
            String queue = in.readString();
            String partition = in.readString();
            String messageId = in.readString();
            String transactionId = Ids.sharedWith(messageId, in.readString());
            return new PushItem(queue, partition, messageId, transactionId, in.readUtf8Text(), in.readString(),
                    in.readString(), in.readLong(), in.readLong());
        }
    }

    /**
     * Claim ready partitions under a new lease. {@code partition} null is a wildcard pop;
     * {@code partitions} above 1 claims up to that many partitions with {@code batch} as a global cap.
     */
    record Pop(String queue, String partition, String group, int batch, String leaseId, boolean autoAck,
               SubscriptionMode subscriptionMode, long subscriptionFrom, int partitions) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.pop(this, now);
        }
    }

    /**
     * Fenced acknowledgements, then a pop with its own lease length: Regina's worker loop in one command.
     * When an ack names a lease that no longer holds its message (expired, or the partition leased again)
     * the whole command is refused and neither the acks nor the pop apply. {@code leaseSeconds} above 0
     * is this pop's lease length in place of the queue's {@code leaseTime}. A pop with neither stays a
     * {@link Pop}, so its log entry is what it always was.
     */
    record AckAndPop(List<AckItem> acks, Pop pop, int leaseSeconds) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.ackAndPop(this, now);
        }
    }

    /** Acknowledge messages; items apply in the given order. */
    record Ack(List<AckItem> items) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.ack(this, now);
        }
    }

    /**
     * One acknowledgement. {@code leaseId} empty or null means "not checked"; {@code delayMs} is the
     * delay of a {@code release} or of a {@code failed} with a broker-side backoff ({@code retryAfterMs}).
     */
    record AckItem(String transactionId, String partitionId, AckStatus status, String error, String group,
                   String leaseId, long delayMs) { }

    /** Pushes and acks that apply all together or not at all. */
    record Transaction(List<TxOperation> operations, List<String> requiredLeases) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.transaction(this, now);
        }
    }

    /** One operation inside a {@link Transaction}. */
    sealed interface TxOperation permits TxPush, TxAck { }

    record TxPush(List<PushItem> items) implements TxOperation { }

    record TxAck(AckItem item) implements TxOperation { }

    /** Renew a lease on every partition that holds it. */
    record ExtendLease(String leaseId, int seconds) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.extendLease(this, now);
        }
    }

    /** Record a trace event for a message. */
    record RecordTrace(String traceId, String transactionId, String partitionId, String group,
                       List<String> traceNames, String eventType, String data) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.recordTrace(this, now);
        }
    }

    /** Drop a consumer group everywhere ({@code queue} null) or on one queue. */
    record DeleteGroup(String group, String queue) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.deleteGroup(this, now);
        }
    }

    /** Move a group's cursors on a queue to a time ({@code toEnd} false) or to the newest message. */
    record Seek(String group, String queue, long timestamp, boolean toEnd) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.seek(this, now);
        }
    }

    /** Rewrite the time from which a group reads queues it has not started yet. */
    record SetSubscription(String group, long timestamp) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.setSubscription(this, now);
        }
    }

    /** Switch push maintenance ({@code pop} false) or pop maintenance on or off. */
    record SetMaintenance(boolean pop, boolean enabled) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.setMaintenance(this, now);
        }
    }

    /** The leader's heartbeat: expires leases, releases due messages, runs retention and eviction. */
    record Tick() implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.tick(this, now);
        }
    }

    /** A paused queue accepts pushes and delivers nothing. */
    record PauseQueue(String queue, boolean paused) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.pauseQueue(this, now);
        }
    }

    /** Remove a queue's pending messages. */
    record ClearQueue(String queue) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.clearQueue(this, now);
        }
    }

    /** Retry at most {@code limit} failed jobs chosen by {@code selector}. */
    record RetryFailedJobs(FailedJobSelector selector, int limit) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.retryFailedJobs(this, now);
        }
    }

    /** Retry one failed job, with an edited payload when {@code data} is not null. */
    record RetryFailedJob(String uuid, String data) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.retryFailedJob(this, now);
        }
    }

    /** Forget one failed job. */
    record ForgetFailedJob(String uuid) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.forgetFailedJob(this, now);
        }
    }

    /**
     * Delete at most {@code limit} failed jobs, oldest first, that failed at least {@code hours} ago
     * ({@code hours} 0: all), optionally of one queue; {@code strictlyOlder} is prune's "more than".
     */
    record RemoveFailedJobs(int hours, String queue, boolean strictlyOlder, int limit) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.removeFailedJobs(this, now);
        }

        public RemoveFailedJobs(int hours, String queue, boolean strictlyOlder) {
            this(hours, queue, strictlyOlder, Integer.MAX_VALUE);
        }
    }

    /**
     * A node's data directory fell under its reserve ({@code raised}) or has room again: while any
     * node's alarm is up, every node refuses pushes ({@link DiskAlarms}).
     */
    record DiskAlarm(String node, boolean raised) implements Command {
        @Override
        public <R> R accept(Handler<R> handler, long now) {
            return handler.diskAlarm(this, now);
        }
    }
}
