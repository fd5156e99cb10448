package io.regina.raft;

import io.regina.queue.Result;

/**
 * The bytes of one result: its {@link ResultOp} code (0 for a null result), then its fields in
 * declaration order (strings, lists, nested records and enums as {@link EntryCodec} describes).
 * The layout of an existing op never changes within a version; {@code CodecGoldenTest} holds it to
 * its fixtures.
 */
final class ResultCodec {

    private ResultCodec() {
    }

    static void write(ByteSink out, Result result) {
        if (result == null) {
            out.writeByte(0);
            return;
        }
        ResultOp op = ResultOp.of(result);
        out.writeByte(op.code());
        switch (op) {
            case REJECTED -> {
                Result.Rejected r = (Result.Rejected) result;
                EnumCode.REJECTION.write(out, r.rejection());
                out.writeString(r.message());
            }
            case CONFIGURED -> {
                Result.Configured r = (Result.Configured) result;
                out.writeString(r.queueId());
                out.writeString(r.partitionId());
                out.writeString(r.queue());
                out.writeString(r.namespace());
                out.writeString(r.task());
                CommandCodec.writeOptions(out, r.options());
            }
            case QUEUE_DELETED -> {
                Result.QueueDeleted r = (Result.QueueDeleted) result;
                out.writeString(r.queue());
                out.writeBoolean(r.existed());
            }
            case PUSHED -> out.writeList(((Result.Pushed) result).outcomes(), ResultCodec::writePushOutcome);
            case POPPED -> {
                Result.Popped r = (Result.Popped) result;
                out.writeString(r.queue());
                out.writeString(r.partition());
                out.writeString(r.partitionId());
                out.writeString(r.leaseId());
                out.writeString(r.group());
                out.writeList(r.messages(), ResultCodec::writeDelivery);
                out.writeInt(r.partitionsClaimed());
            }
            case ACKED -> out.writeList(((Result.Acked) result).outcomes(), ResultCodec::writeAckOutcome);
            case TRANSACTION_DONE -> {
                Result.TransactionDone r = (Result.TransactionDone) result;
                out.writeBoolean(r.success());
                out.writeString(r.error());
                out.writeList(r.results(), ResultCodec::writeTxOutcome);
            }
            case LEASE_EXTENDED -> {
                Result.LeaseExtended r = (Result.LeaseExtended) result;
                out.writeString(r.leaseId());
                out.writeBoolean(r.success());
                out.writeString(r.error());
                out.writeLong(r.expiresAt());
            }
            case TRACE_RECORDED -> out.writeString(((Result.TraceRecorded) result).traceId());
            case GROUP_DELETED -> {
                Result.GroupDeleted r = (Result.GroupDeleted) result;
                out.writeString(r.group());
                out.writeString(r.queue());
                out.writeInt(r.deletedPartitions());
                out.writeBoolean(r.metadataDeleted());
            }
            case SOUGHT -> {
                Result.Sought r = (Result.Sought) result;
                out.writeString(r.group());
                out.writeString(r.queue());
                out.writeBoolean(r.toEnd());
                out.writeLong(r.timestamp());
                out.writeInt(r.partitionsUpdated());
            }
            case SUBSCRIPTION_SET -> {
                Result.SubscriptionSet r = (Result.SubscriptionSet) result;
                out.writeString(r.group());
                out.writeLong(r.timestamp());
                out.writeInt(r.queuesUpdated());
            }
            case MAINTENANCE -> {
                Result.Maintenance r = (Result.Maintenance) result;
                out.writeBoolean(r.maintenanceMode());
                out.writeBoolean(r.popMaintenanceMode());
                out.writeInt(r.bufferedMessages());
            }
            case TICKED -> {
                Result.Ticked r = (Result.Ticked) result;
                out.writeInt(r.expiredLeases());
                out.writeInt(r.releasedMessages());
                out.writeInt(r.removedMessages());
            }
            case QUEUE_PAUSED -> {
                Result.QueuePaused r = (Result.QueuePaused) result;
                out.writeString(r.queue());
                out.writeBoolean(r.paused());
            }
            case CLEARED -> {
                Result.Cleared r = (Result.Cleared) result;
                out.writeString(r.queue());
                out.writeLong(r.cleared());
            }
            case FAILED_JOBS_RETRIED -> {
                Result.FailedJobsRetried r = (Result.FailedJobsRetried) result;
                out.writeInt(r.retried());
                out.writeStrings(r.missing());
                out.writeLong(r.remaining());
            }
            case FAILED_JOBS_REMOVED -> {
                Result.FailedJobsRemoved r = (Result.FailedJobsRemoved) result;
                out.writeInt(r.removed());
                out.writeBoolean(r.more());
            }
            case ACKED_AND_POPPED -> {
                Result.AckedAndPopped r = (Result.AckedAndPopped) result;
                write(out, r.acked());
                write(out, r.popped());
            }
            case DISK_ALARMS -> out.writeStrings(((Result.DiskAlarms) result).raised());
            default -> throw new CodecException("unhandled result op " + op);
        }
    }

    static Result read(ByteSource in) {
        int code = in.readByte();
        if (code == 0) {
            return null;
        }
        return switch (ResultOp.ofCode(code, in)) {
            case REJECTED -> new Result.Rejected(EnumCode.REJECTION.read(in), in.readString());
            case CONFIGURED -> new Result.Configured(in.readString(), in.readString(), in.readString(),
                    in.readString(), in.readString(), CommandCodec.readOptions(in));
            case QUEUE_DELETED -> new Result.QueueDeleted(in.readString(), in.readBoolean());
            case PUSHED -> new Result.Pushed(in.readList("push outcomes", ResultCodec::readPushOutcome));
            case POPPED -> new Result.Popped(in.readString(), in.readString(), in.readString(), in.readString(),
                    in.readString(), in.readList("deliveries", ResultCodec::readDelivery), in.readInt());
            case ACKED -> new Result.Acked(in.readList("ack outcomes", ResultCodec::readAckOutcome));
            case TRANSACTION_DONE -> new Result.TransactionDone(in.readBoolean(), in.readString(),
                    in.readList("transaction outcomes", ResultCodec::readTxOutcome));
            case LEASE_EXTENDED -> new Result.LeaseExtended(in.readString(), in.readBoolean(), in.readString(),
                    in.readLong());
            case TRACE_RECORDED -> new Result.TraceRecorded(in.readString());
            case GROUP_DELETED -> new Result.GroupDeleted(in.readString(), in.readString(), in.readInt(),
                    in.readBoolean());
            case SOUGHT -> new Result.Sought(in.readString(), in.readString(), in.readBoolean(), in.readLong(),
                    in.readInt());
            case SUBSCRIPTION_SET -> new Result.SubscriptionSet(in.readString(), in.readLong(), in.readInt());
            case MAINTENANCE -> new Result.Maintenance(in.readBoolean(), in.readBoolean(), in.readInt());
            case TICKED -> new Result.Ticked(in.readInt(), in.readInt(), in.readInt());
            case QUEUE_PAUSED -> new Result.QueuePaused(in.readString(), in.readBoolean());
            case CLEARED -> new Result.Cleared(in.readString(), in.readLong());
            case FAILED_JOBS_RETRIED -> new Result.FailedJobsRetried(in.readInt(), in.readStrings(), in.readLong());
            case FAILED_JOBS_REMOVED -> new Result.FailedJobsRemoved(in.readInt(), in.readBoolean());
            case ACKED_AND_POPPED -> new Result.AckedAndPopped(nested(in, Result.Acked.class),
                    nested(in, Result.Popped.class));
            case DISK_ALARMS -> new Result.DiskAlarms(in.readStrings());
        };
    }

    /** A result written whole (its op code, then its fields) inside another, or null. */
    private static <R extends Result> R nested(ByteSource in, Class<R> type) {
        long at = in.position();
        Result result = read(in);
        if (result != null && !type.isInstance(result)) {
            throw new CodecException("expected a nested " + type.getSimpleName() + " at offset " + at + " of "
                    + in.what() + ", found " + result.getClass().getSimpleName());
        }
        return type.cast(result);
    }

    private static void writePushOutcome(ByteSink out, Result.PushOutcome o) {
        if (out.writePresence(o)) {
            out.writeInt(o.index());
            out.writeString(o.transactionId());
            EnumCode.PUSH_STATUS.write(out, o.status());
            out.writeString(o.messageId());
            out.writeString(o.partitionId());
            out.writeString(o.traceId());
            out.writeString(o.queue());
        }
    }

    private static Result.PushOutcome readPushOutcome(ByteSource in) {
        if (!in.readPresence("push outcome")) {
            return null;
        }
        return new Result.PushOutcome(in.readInt(), in.readString(), EnumCode.PUSH_STATUS.read(in), in.readString(),
                in.readString(), in.readString(), in.readString());
    }

    private static void writeDelivery(ByteSink out, Result.Delivery d) {
        if (out.writePresence(d)) {
            out.writeString(d.id());
            out.writeString(d.transactionId());
            out.writeString(d.traceId());
            out.writeString(d.data());
            out.writeString(d.producerSub());
            out.writeLong(d.createdAt());
            out.writeString(d.partitionId());
            out.writeString(d.partition());
            out.writeString(d.leaseId());
            out.writeString(d.group());
            out.writeInt(d.attempts());
        }
    }

    private static Result.Delivery readDelivery(ByteSource in) {
        if (!in.readPresence("delivery")) {
            return null;
        }
        return new Result.Delivery(in.readString(), in.readString(), in.readString(), in.readString(),
                in.readString(), in.readLong(), in.readString(), in.readString(), in.readString(), in.readString(),
                in.readInt());
    }

    private static void writeAckOutcome(ByteSink out, Result.AckOutcome o) {
        if (out.writePresence(o)) {
            out.writeInt(o.index());
            out.writeString(o.transactionId());
            out.writeBoolean(o.success());
            out.writeString(o.error());
            out.writeString(o.queue());
            out.writeString(o.partition());
            out.writeBoolean(o.leaseReleased());
            out.writeBoolean(o.dlq());
        }
    }

    private static Result.AckOutcome readAckOutcome(ByteSource in) {
        if (!in.readPresence("ack outcome")) {
            return null;
        }
        return new Result.AckOutcome(in.readInt(), in.readString(), in.readBoolean(), in.readString(),
                in.readString(), in.readString(), in.readBoolean(), in.readBoolean());
    }

    private static void writeTxOutcome(ByteSink out, Result.TxOutcome o) {
        if (out.writePresence(o)) {
            out.writeInt(o.index());
            out.writeString(o.type());
            out.writeBoolean(o.success());
            out.writeString(o.transactionId());
            out.writeString(o.messageId());
            out.writeString(o.partitionId());
            out.writeString(o.queue());
            out.writeString(o.error());
            out.writeBoolean(o.dlq());
        }
    }

    private static Result.TxOutcome readTxOutcome(ByteSource in) {
        if (!in.readPresence("transaction outcome")) {
            return null;
        }
        return new Result.TxOutcome(in.readInt(), in.readString(), in.readBoolean(), in.readString(),
                in.readString(), in.readString(), in.readString(), in.readString(), in.readBoolean());
    }
}
