package io.regina.raft;

import io.regina.queue.Command;
import io.regina.queue.FailedJobSelector;
import io.regina.queue.QueueOptions;


/**
 * The bytes of one command: its {@link CommandOp} code, then its fields in declaration order
 * (strings, lists, nested records and enums as {@link EntryCodec} describes). The layout of an
 * existing op never changes within a version; {@code CodecGoldenTest} holds it to its fixtures.
 */
final class CommandCodec {

    /** The codes of a transaction's operations (0 = null). */
    private static final int TX_PUSH = 1;
    private static final int TX_ACK = 2;
    /** The codes of failed-job selectors (0 = null). */
    private static final int SELECT_IDS = 1;
    private static final int SELECT_ALL = 2;
    /** A substring filter: a whole-word one is its own op, {@link CommandOp#RETRY_FAILED_JOBS_SEARCH}. */
    private static final int SELECT_FILTER = 3;

    private CommandCodec() {
    }

    static void write(ByteSink out, Command command) {
        if (command == null) {
            throw new CodecException("a null command cannot be encoded");
        }
        CommandOp op = CommandOp.of(command);
        out.writeByte(op.code());
        switch (op) {
            case CONFIGURE -> {
                Command.Configure c = (Command.Configure) command;
                out.writeString(c.queue());
                out.writeString(c.namespace());
                out.writeString(c.task());
                writeOptions(out, c.options());
            }
            case DELETE_QUEUE -> out.writeString(((Command.DeleteQueue) command).queue());
            case PUSH -> out.writeList(((Command.Push) command).items(), CommandCodec::writePushItem);
            case POP -> writePop(out, (Command.Pop) command);
            case ACK -> out.writeList(((Command.Ack) command).items(), CommandCodec::writeAckItem);
            case TRANSACTION -> {
                Command.Transaction c = (Command.Transaction) command;
                out.writeList(c.operations(), CommandCodec::writeTxOperation);
                out.writeStrings(c.requiredLeases());
            }
            case EXTEND_LEASE -> {
                Command.ExtendLease c = (Command.ExtendLease) command;
                out.writeString(c.leaseId());
                out.writeInt(c.seconds());
            }
            case RECORD_TRACE -> {
                Command.RecordTrace c = (Command.RecordTrace) command;
                out.writeString(c.traceId());
                out.writeString(c.transactionId());
                out.writeString(c.partitionId());
                out.writeString(c.group());
                out.writeStrings(c.traceNames());
                out.writeString(c.eventType());
                out.writeString(c.data());
            }
            case DELETE_GROUP -> {
                Command.DeleteGroup c = (Command.DeleteGroup) command;
                out.writeString(c.group());
                out.writeString(c.queue());
            }
            case SEEK -> {
                Command.Seek c = (Command.Seek) command;
                out.writeString(c.group());
                out.writeString(c.queue());
                out.writeLong(c.timestamp());
                out.writeBoolean(c.toEnd());
            }
            case SET_SUBSCRIPTION -> {
                Command.SetSubscription c = (Command.SetSubscription) command;
                out.writeString(c.group());
                out.writeLong(c.timestamp());
            }
            case SET_MAINTENANCE -> {
                Command.SetMaintenance c = (Command.SetMaintenance) command;
                out.writeBoolean(c.pop());
                out.writeBoolean(c.enabled());
            }
            case TICK -> {
                // no fields
            }
            case PAUSE_QUEUE -> {
                Command.PauseQueue c = (Command.PauseQueue) command;
                out.writeString(c.queue());
                out.writeBoolean(c.paused());
            }
            case CLEAR_QUEUE -> out.writeString(((Command.ClearQueue) command).queue());
            case RETRY_FAILED_JOBS -> {
                Command.RetryFailedJobs c = (Command.RetryFailedJobs) command;
                writeSelector(out, c.selector());
                out.writeInt(c.limit());
            }
            case RETRY_FAILED_JOB -> {
                Command.RetryFailedJob c = (Command.RetryFailedJob) command;
                out.writeString(c.uuid());
                out.writeString(c.data());
            }
            case FORGET_FAILED_JOB -> out.writeString(((Command.ForgetFailedJob) command).uuid());
            case REMOVE_FAILED_JOBS -> {
                Command.RemoveFailedJobs c = (Command.RemoveFailedJobs) command;
                out.writeInt(c.hours());
                out.writeString(c.queue());
                out.writeBoolean(c.strictlyOlder());
                out.writeInt(c.limit());
            }
            case ACK_AND_POP -> {
                Command.AckAndPop c = (Command.AckAndPop) command;
                out.writeList(c.acks(), CommandCodec::writeAckItem);
                if (out.writePresence(c.pop())) {
                    writePop(out, c.pop());
                }
                out.writeInt(c.leaseSeconds());
            }
            case RETRY_FAILED_JOBS_SEARCH -> {
                Command.RetryFailedJobs c = (Command.RetryFailedJobs) command;
                FailedJobSelector.Search s = (FailedJobSelector.Search) c.selector();
                out.writeString(s.queue());
                out.writeString(s.text());
                out.writeLong(s.from());
                out.writeLong(s.to());
                out.writeInt(c.limit());
            }
            case DISK_ALARM -> {
                Command.DiskAlarm c = (Command.DiskAlarm) command;
                out.writeString(c.node());
                out.writeBoolean(c.raised());
            }
            default -> throw new CodecException("unhandled command op " + op);
        }
    }

    static Command read(ByteSource in) {
        CommandOp op = CommandOp.ofCode(in.readByte(), in);
        return switch (op) {
            case CONFIGURE -> new Command.Configure(in.readString(), in.readString(), in.readString(),
                    readOptions(in));
            case DELETE_QUEUE -> new Command.DeleteQueue(in.readString());
            case PUSH -> new Command.Push(in.readList("push items", CommandCodec::readPushItem));
            case POP -> readPop(in);
            case ACK -> new Command.Ack(in.readList("ack items", CommandCodec::readAckItem));
            case TRANSACTION -> new Command.Transaction(
                    in.readList("transaction operations", CommandCodec::readTxOperation), in.readStrings());
            case EXTEND_LEASE -> new Command.ExtendLease(in.readString(), in.readInt());
            case RECORD_TRACE -> new Command.RecordTrace(in.readString(), in.readString(), in.readString(),
                    in.readString(), in.readStrings(), in.readString(), in.readString());
            case DELETE_GROUP -> new Command.DeleteGroup(in.readString(), in.readString());
            case SEEK -> new Command.Seek(in.readString(), in.readString(), in.readLong(), in.readBoolean());
            case SET_SUBSCRIPTION -> new Command.SetSubscription(in.readString(), in.readLong());
            case SET_MAINTENANCE -> new Command.SetMaintenance(in.readBoolean(), in.readBoolean());
            case TICK -> new Command.Tick();
            case PAUSE_QUEUE -> new Command.PauseQueue(in.readString(), in.readBoolean());
            case CLEAR_QUEUE -> new Command.ClearQueue(in.readString());
            case RETRY_FAILED_JOBS -> new Command.RetryFailedJobs(readSelector(in), in.readInt());
            case RETRY_FAILED_JOB -> new Command.RetryFailedJob(in.readString(), in.readString());
            case FORGET_FAILED_JOB -> new Command.ForgetFailedJob(in.readString());
            case REMOVE_FAILED_JOBS -> new Command.RemoveFailedJobs(in.readInt(), in.readString(), in.readBoolean(),
                    in.readInt());
            case ACK_AND_POP -> new Command.AckAndPop(in.readList("ack items", CommandCodec::readAckItem),
                    in.readPresence("pop") ? readPop(in) : null, in.readInt());
            case RETRY_FAILED_JOBS_SEARCH -> new Command.RetryFailedJobs(new FailedJobSelector.Search(in.readString(),
                    in.readString(), in.readLong(), in.readLong()), in.readInt());
            case DISK_ALARM -> new Command.DiskAlarm(in.readString(), in.readBoolean());
        };
    }

    /** A pop's fields: the whole of a {@code POP} command, nested in an {@code ACK_AND_POP}. */
    private static void writePop(ByteSink out, Command.Pop c) {
        out.writeString(c.queue());
        out.writeString(c.partition());
        out.writeString(c.group());
        out.writeInt(c.batch());
        out.writeString(c.leaseId());
        out.writeBoolean(c.autoAck());
        EnumCode.SUBSCRIPTION_MODE.write(out, c.subscriptionMode());
        out.writeLong(c.subscriptionFrom());
        out.writeInt(c.partitions());
    }

    private static Command.Pop readPop(ByteSource in) {
        return new Command.Pop(in.readString(), in.readString(), in.readString(), in.readInt(),
                in.readString(), in.readBoolean(), EnumCode.SUBSCRIPTION_MODE.read(in), in.readLong(),
                in.readInt());
    }

    /** Queue options as a nested record; the fields are {@link QueueOptions#writeTo}'s, shared with snapshots. */
    static void writeOptions(ByteSink out, QueueOptions options) {
        if (out.writePresence(options)) {
            options.writeTo(out);
        }
    }

    static QueueOptions readOptions(ByteSource in) {
        return in.readPresence("queue options") ? QueueOptions.readFrom(in) : null;
    }

    private static void writePushItem(ByteSink out, Command.PushItem item) {
        if (out.writePresence(item)) {
            item.writeTo(out);
        }
    }

    private static Command.PushItem readPushItem(ByteSource in) {
        return in.readPresence("push item") ? Command.PushItem.readFrom(in) : null;
    }

    private static void writeAckItem(ByteSink out, Command.AckItem item) {
        if (out.writePresence(item)) {
            out.writeString(item.transactionId());
            out.writeString(item.partitionId());
            EnumCode.ACK_STATUS.write(out, item.status());
            out.writeString(item.error());
            out.writeString(item.group());
            out.writeString(item.leaseId());
            out.writeLong(item.delayMs());
        }
    }

    private static Command.AckItem readAckItem(ByteSource in) {
        if (!in.readPresence("ack item")) {
            return null;
        }
        return new Command.AckItem(in.readString(), in.readString(), EnumCode.ACK_STATUS.read(in), in.readString(),
                in.readString(), in.readString(), in.readLong());
    }

    private static void writeTxOperation(ByteSink out, Command.TxOperation operation) {
        if (operation == null) {
            out.writeByte(0);
        } else if (operation instanceof Command.TxPush push) {
            out.writeByte(TX_PUSH);
            out.writeList(push.items(), CommandCodec::writePushItem);
        } else if (operation instanceof Command.TxAck ack) {
            out.writeByte(TX_ACK);
            writeAckItem(out, ack.item());
        } else {
            throw new CodecException("no code for transaction operation " + operation.getClass().getName());
        }
    }

    private static Command.TxOperation readTxOperation(ByteSource in) {
        int code = in.readByte();
        return switch (code) {
            case 0 -> null;
            case TX_PUSH -> new Command.TxPush(in.readList("push items", CommandCodec::readPushItem));
            case TX_ACK -> new Command.TxAck(readAckItem(in));
            default -> throw new CodecException("unknown transaction operation code " + code + " at offset "
                    + (in.position() - 1) + " of " + in.what());
        };
    }

    private static void writeSelector(ByteSink out, FailedJobSelector selector) {
        if (selector == null) {
            out.writeByte(0);
        } else if (selector instanceof FailedJobSelector.Ids ids) {
            out.writeByte(SELECT_IDS);
            out.writeStrings(ids.uuids());
        } else if (selector instanceof FailedJobSelector.All) {
            out.writeByte(SELECT_ALL);
        } else if (selector instanceof FailedJobSelector.Filter f) {
            out.writeByte(SELECT_FILTER);
            out.writeString(f.queue());
            out.writeString(f.text());
            out.writeLong(f.from());
            out.writeLong(f.to());
        } else {
            throw new CodecException("no code for failed-job selector " + selector.getClass().getName());
        }
    }

    private static FailedJobSelector readSelector(ByteSource in) {
        int code = in.readByte();
        return switch (code) {
            case 0 -> null;
            case SELECT_IDS -> new FailedJobSelector.Ids(in.readStrings());
            case SELECT_ALL -> new FailedJobSelector.All();
            case SELECT_FILTER -> new FailedJobSelector.Filter(in.readString(), in.readString(), in.readLong(),
                    in.readLong());
            default -> throw new CodecException("unknown failed-job selector code " + code + " at offset "
                    + (in.position() - 1) + " of " + in.what());
        };
    }

}
