package io.regina.raft;

import io.regina.queue.AckStatus;
import io.regina.queue.Command;
import io.regina.queue.FailedJobSelector;
import io.regina.queue.QueueOptions;
import io.regina.queue.Rejection;
import io.regina.queue.Result;
import io.regina.queue.SubscriptionMode;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The versioned binary format of everything that travels through the Raft log.
 *
 * <pre>
 * client request : u8 version, i32 count, count x command          (no time: the leader stamps it)
 * log entry      : u8 version, i64 now, i32 count, count x command  (now = leader's epoch millis)
 * entry reply    : u8 version, i32 count, count x result            (result i answers command i)
 * command        : u8 op code ({@link CommandOp}), then its fields in declaration order
 * result         : u8 op code ({@link ResultOp}, 0 = null), then its fields in declaration order
 * string         : u8 presence (0 null, 1 present), i32 length, UTF-8 bytes
 * list           : i32 count (-1 null), elements
 * nested record  : u8 presence (0 null, 1 present), fields
 * enum           : u8 stable code (0 null), see the code tables below
 * </pre>
 *
 * Integers are big-endian. Op codes and enum codes are stable: a new one is only ever appended.
 * A change in the layout of an existing command bumps {@link #VERSION}; the decoder must keep
 * reading every older version, and a node refuses a version it does not know.
 */
public final class EntryCodec {

    /** The format version this node writes. */
    public static final int VERSION = 1;

    /** The one decoded log entry: the leader's time and the commands in order. */
    public record Entry(long now, List<Command> commands) { }

    private EntryCodec() {
    }

    /** The stable op codes of commands. Append only; never renumber or reuse. */
    public enum CommandOp {
        CONFIGURE(1, Command.Configure.class),
        DELETE_QUEUE(2, Command.DeleteQueue.class),
        PUSH(3, Command.Push.class),
        POP(4, Command.Pop.class),
        ACK(5, Command.Ack.class),
        TRANSACTION(6, Command.Transaction.class),
        EXTEND_LEASE(7, Command.ExtendLease.class),
        RECORD_TRACE(8, Command.RecordTrace.class),
        DELETE_GROUP(9, Command.DeleteGroup.class),
        SEEK(10, Command.Seek.class),
        SET_SUBSCRIPTION(11, Command.SetSubscription.class),
        SET_MAINTENANCE(12, Command.SetMaintenance.class),
        TICK(13, Command.Tick.class),
        PAUSE_QUEUE(14, Command.PauseQueue.class),
        CLEAR_QUEUE(15, Command.ClearQueue.class),
        RETRY_FAILED_JOBS(16, Command.RetryFailedJobs.class),
        RETRY_FAILED_JOB(17, Command.RetryFailedJob.class),
        FORGET_FAILED_JOB(18, Command.ForgetFailedJob.class),
        REMOVE_FAILED_JOBS(19, Command.RemoveFailedJobs.class);

        private final int code;
        private final Class<? extends Command> type;

        CommandOp(int code, Class<? extends Command> type) {
            this.code = code;
            this.type = type;
        }

        public int code() {
            return code;
        }

        public Class<? extends Command> type() {
            return type;
        }

        static CommandOp of(Command command) {
            for (CommandOp op : values()) {
                if (op.type == command.getClass()) {
                    return op;
                }
            }
            throw new CodecException("no op code for command type " + command.getClass().getName()
                    + ": add one at the end of EntryCodec.CommandOp");
        }

        static CommandOp ofCode(int code, ByteSource in) {
            for (CommandOp op : values()) {
                if (op.code == code) {
                    return op;
                }
            }
            throw new CodecException("unknown command op code " + code + " at offset " + (in.position() - 1)
                    + " of " + in.what() + " (this node knows 1.." + values().length
                    + "; was it written by a newer Regina?)");
        }
    }

    /** The stable op codes of results. Append only; never renumber or reuse. 0 encodes a null result. */
    public enum ResultOp {
        REJECTED(1, Result.Rejected.class),
        CONFIGURED(2, Result.Configured.class),
        QUEUE_DELETED(3, Result.QueueDeleted.class),
        PUSHED(4, Result.Pushed.class),
        POPPED(5, Result.Popped.class),
        ACKED(6, Result.Acked.class),
        TRANSACTION_DONE(7, Result.TransactionDone.class),
        LEASE_EXTENDED(8, Result.LeaseExtended.class),
        TRACE_RECORDED(9, Result.TraceRecorded.class),
        GROUP_DELETED(10, Result.GroupDeleted.class),
        SOUGHT(11, Result.Sought.class),
        SUBSCRIPTION_SET(12, Result.SubscriptionSet.class),
        MAINTENANCE(13, Result.Maintenance.class),
        TICKED(14, Result.Ticked.class),
        QUEUE_PAUSED(15, Result.QueuePaused.class),
        CLEARED(16, Result.Cleared.class),
        FAILED_JOBS_RETRIED(17, Result.FailedJobsRetried.class),
        FAILED_JOBS_REMOVED(18, Result.FailedJobsRemoved.class);

        private final int code;
        private final Class<? extends Result> type;

        ResultOp(int code, Class<? extends Result> type) {
            this.code = code;
            this.type = type;
        }

        public int code() {
            return code;
        }

        public Class<? extends Result> type() {
            return type;
        }

        static ResultOp of(Result result) {
            for (ResultOp op : values()) {
                if (op.type == result.getClass()) {
                    return op;
                }
            }
            throw new CodecException("no op code for result type " + result.getClass().getName()
                    + ": add one at the end of EntryCodec.ResultOp");
        }

        static ResultOp ofCode(int code, ByteSource in) {
            for (ResultOp op : values()) {
                if (op.code == code) {
                    return op;
                }
            }
            throw new CodecException("unknown result op code " + code + " at offset " + (in.position() - 1)
                    + " of " + in.what() + " (this node knows 1.." + values().length
                    + "; was it written by a newer Regina?)");
        }
    }

    // ------------------------------------------------------------------ requests and entries

    /** Encodes one command (op code and fields, no version): the unit the group committer batches. */
    public static byte[] encodeCommand(Command command) {
        ByteSink out = new ByteSink();
        writeCommand(out, command);
        return out.toByteArray();
    }

    /** A client request made of commands already encoded with {@link #encodeCommand}. */
    public static byte[] encodeRequest(List<byte[]> encodedCommands) {
        long total = 5;
        for (byte[] c : encodedCommands) {
            total += c.length;
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new CodecException("request exceeds 2 GB");
        }
        ByteSink out = new ByteSink((int) total);
        out.writeByte(VERSION);
        out.writeInt(encodedCommands.size());
        for (byte[] c : encodedCommands) {
            out.writeBytes(c, 0, c.length);
        }
        return out.toByteArray();
    }

    /** A client request of the given commands. */
    public static byte[] encodeRequestOf(List<Command> commands) {
        List<byte[]> encoded = new ArrayList<>(commands.size());
        for (Command c : commands) {
            encoded.add(encodeCommand(c));
        }
        return encodeRequest(encoded);
    }

    /** Decodes (and so validates) a client request. */
    public static List<Command> decodeRequest(ByteBuffer request) {
        ByteSource in = new ByteSource(request, "client request");
        checkVersion(in);
        List<Command> commands = readCommands(in);
        checkFullyRead(in);
        return commands;
    }

    /** A log entry: the leader's {@code now} and the commands in order. */
    public static byte[] encodeEntry(long now, List<Command> commands) {
        ByteSink out = new ByteSink();
        out.writeByte(VERSION);
        out.writeLong(now);
        out.writeInt(commands.size());
        for (Command c : commands) {
            writeCommand(out, c);
        }
        return out.toByteArray();
    }

    /**
     * The log entry for a request already validated by {@link #decodeRequest}: the request's
     * command bytes are copied behind the time stamp, not re-encoded.
     */
    public static byte[] entryFromRequest(long now, ByteBuffer request) {
        ByteBuffer body = request.slice();
        int version = body.get() & 0xFF;
        if (version != VERSION) {
            throw new CodecException("client request has format version " + version
                    + "; this node reads only version " + VERSION);
        }
        byte[] entry = new byte[1 + 8 + body.remaining()];
        ByteBuffer w = ByteBuffer.wrap(entry);
        w.put((byte) VERSION);
        w.putLong(now);
        w.put(body);
        return entry;
    }

    public static Entry decodeEntry(ByteBuffer entry) {
        ByteSource in = new ByteSource(entry, "log entry");
        checkVersion(in);
        long now = in.readLong();
        List<Command> commands = readCommands(in);
        checkFullyRead(in);
        return new Entry(now, commands);
    }

    public static byte[] encodeResults(List<Result> results) {
        ByteSink out = new ByteSink();
        out.writeByte(VERSION);
        out.writeInt(results.size());
        for (Result r : results) {
            writeResult(out, r);
        }
        return out.toByteArray();
    }

    public static List<Result> decodeResults(ByteBuffer reply) {
        ByteSource in = new ByteSource(reply, "entry reply");
        checkVersion(in);
        int count = in.readCount("results", 1);
        List<Result> results = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            results.add(readResult(in));
        }
        checkFullyRead(in);
        return results;
    }

    private static void checkVersion(ByteSource in) {
        if (in.remaining() == 0) {
            throw new CodecException(in.what() + " is empty: no format version byte");
        }
        int version = in.readByte();
        if (version != VERSION) {
            throw new CodecException(in.what() + " has unknown format version " + version
                    + "; this node reads only version " + VERSION
                    + " (was it written by a newer Regina? upgrade this node)");
        }
    }

    private static void checkFullyRead(ByteSource in) {
        if (in.remaining() != 0) {
            throw new CodecException(in.what() + " is corrupt: " + in.remaining()
                    + " unexpected trailing byte(s) at offset " + in.position());
        }
    }

    private static List<Command> readCommands(ByteSource in) {
        int count = in.readCount("commands", 1);
        List<Command> commands = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            commands.add(readCommand(in));
        }
        return commands;
    }

    // ------------------------------------------------------------------ commands

    private static void writeCommand(ByteSink out, Command command) {
        if (command == null) {
            throw new CodecException("a null command cannot be encoded");
        }
        CommandOp op = CommandOp.of(command);
        out.writeByte(op.code);
        switch (op) {
            case CONFIGURE -> {
                Command.Configure c = (Command.Configure) command;
                out.writeString(c.queue());
                out.writeString(c.namespace());
                out.writeString(c.task());
                writeOptions(out, c.options());
            }
            case DELETE_QUEUE -> out.writeString(((Command.DeleteQueue) command).queue());
            case PUSH -> writePushItems(out, ((Command.Push) command).items());
            case POP -> {
                Command.Pop c = (Command.Pop) command;
                out.writeString(c.queue());
                out.writeString(c.partition());
                out.writeString(c.group());
                out.writeInt(c.batch());
                out.writeString(c.leaseId());
                out.writeBoolean(c.autoAck());
                out.writeByte(subscriptionModeCode(c.subscriptionMode()));
                out.writeLong(c.subscriptionFrom());
                out.writeInt(c.partitions());
            }
            case ACK -> {
                List<Command.AckItem> items = ((Command.Ack) command).items();
                if (writeListHeader(out, items)) {
                    for (Command.AckItem item : items) {
                        writeAckItem(out, item);
                    }
                }
            }
            case TRANSACTION -> {
                Command.Transaction c = (Command.Transaction) command;
                if (writeListHeader(out, c.operations())) {
                    for (Command.TxOperation op2 : c.operations()) {
                        writeTxOperation(out, op2);
                    }
                }
                writeStrings(out, c.requiredLeases());
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
                writeStrings(out, c.traceNames());
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
            default -> throw new CodecException("unhandled command op " + op);
        }
    }

    private static Command readCommand(ByteSource in) {
        CommandOp op = CommandOp.ofCode(in.readByte(), in);
        return switch (op) {
            case CONFIGURE -> new Command.Configure(in.readString(), in.readString(), in.readString(),
                    readOptions(in));
            case DELETE_QUEUE -> new Command.DeleteQueue(in.readString());
            case PUSH -> new Command.Push(readPushItems(in));
            case POP -> new Command.Pop(in.readString(), in.readString(), in.readString(), in.readInt(),
                    in.readString(), in.readBoolean(), readSubscriptionMode(in), in.readLong(), in.readInt());
            case ACK -> {
                int n = readListHeader(in, "ack items");
                List<Command.AckItem> items = null;
                if (n >= 0) {
                    items = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        items.add(readAckItem(in));
                    }
                }
                yield new Command.Ack(freeze(items));
            }
            case TRANSACTION -> {
                int n = readListHeader(in, "transaction operations");
                List<Command.TxOperation> ops = null;
                if (n >= 0) {
                    ops = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        ops.add(readTxOperation(in));
                    }
                }
                yield new Command.Transaction(freeze(ops), readStrings(in));
            }
            case EXTEND_LEASE -> new Command.ExtendLease(in.readString(), in.readInt());
            case RECORD_TRACE -> new Command.RecordTrace(in.readString(), in.readString(), in.readString(),
                    in.readString(), readStrings(in), in.readString(), in.readString());
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
        };
    }

    private static void writeOptions(ByteSink out, QueueOptions o) {
        if (!writePresence(out, o)) {
            return;
        }
        o.writeTo(out);
    }

    private static QueueOptions readOptions(ByteSource in) {
        if (!readPresence(in, "queue options")) {
            return null;
        }
        return QueueOptions.readFrom(in);
    }

    private static void writePushItems(ByteSink out, List<Command.PushItem> items) {
        if (!writeListHeader(out, items)) {
            return;
        }
        for (Command.PushItem item : items) {
            if (!writePresence(out, item)) {
                continue;
            }
            out.writeString(item.queue());
            out.writeString(item.partition());
            out.writeString(item.messageId());
            out.writeString(item.transactionId());
            out.writeString(item.payload());
            out.writeString(item.traceId());
            out.writeString(item.producerSub());
            out.writeLong(item.delayMs());
            out.writeLong(item.availableAt());
        }
    }

    private static List<Command.PushItem> readPushItems(ByteSource in) {
        int n = readListHeader(in, "push items");
        if (n < 0) {
            return null;
        }
        List<Command.PushItem> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            if (!readPresence(in, "push item")) {
                items.add(null);
                continue;
            }
            items.add(new Command.PushItem(in.readString(), in.readString(), in.readString(), in.readString(),
                    in.readString(), in.readString(), in.readString(), in.readLong(), in.readLong()));
        }
        return freeze(items);
    }

    private static void writeAckItem(ByteSink out, Command.AckItem item) {
        if (!writePresence(out, item)) {
            return;
        }
        out.writeString(item.transactionId());
        out.writeString(item.partitionId());
        out.writeByte(ackStatusCode(item.status()));
        out.writeString(item.error());
        out.writeString(item.group());
        out.writeString(item.leaseId());
        out.writeLong(item.delayMs());
    }

    private static Command.AckItem readAckItem(ByteSource in) {
        if (!readPresence(in, "ack item")) {
            return null;
        }
        return new Command.AckItem(in.readString(), in.readString(), readAckStatus(in), in.readString(),
                in.readString(), in.readString(), in.readLong());
    }

    private static void writeTxOperation(ByteSink out, Command.TxOperation op) {
        if (op == null) {
            out.writeByte(0);
        } else if (op instanceof Command.TxPush push) {
            out.writeByte(1);
            writePushItems(out, push.items());
        } else if (op instanceof Command.TxAck ack) {
            out.writeByte(2);
            writeAckItem(out, ack.item());
        } else {
            throw new CodecException("no code for transaction operation " + op.getClass().getName());
        }
    }

    private static Command.TxOperation readTxOperation(ByteSource in) {
        int code = in.readByte();
        return switch (code) {
            case 0 -> null;
            case 1 -> new Command.TxPush(readPushItems(in));
            case 2 -> new Command.TxAck(readAckItem(in));
            default -> throw new CodecException("unknown transaction operation code " + code + " at offset "
                    + (in.position() - 1) + " of " + in.what());
        };
    }

    private static void writeSelector(ByteSink out, FailedJobSelector selector) {
        if (selector == null) {
            out.writeByte(0);
        } else if (selector instanceof FailedJobSelector.Ids ids) {
            out.writeByte(1);
            writeStrings(out, ids.uuids());
        } else if (selector instanceof FailedJobSelector.All) {
            out.writeByte(2);
        } else if (selector instanceof FailedJobSelector.Filter f) {
            out.writeByte(3);
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
            case 1 -> new FailedJobSelector.Ids(readStrings(in));
            case 2 -> new FailedJobSelector.All();
            case 3 -> new FailedJobSelector.Filter(in.readString(), in.readString(), in.readLong(), in.readLong());
            default -> throw new CodecException("unknown failed-job selector code " + code + " at offset "
                    + (in.position() - 1) + " of " + in.what());
        };
    }

    // ------------------------------------------------------------------ results

    private static void writeResult(ByteSink out, Result result) {
        if (result == null) {
            out.writeByte(0);
            return;
        }
        ResultOp op = ResultOp.of(result);
        out.writeByte(op.code);
        switch (op) {
            case REJECTED -> {
                Result.Rejected r = (Result.Rejected) result;
                out.writeByte(r.rejection() == null ? 0 : r.rejection().code());
                out.writeString(r.message());
            }
            case CONFIGURED -> {
                Result.Configured r = (Result.Configured) result;
                out.writeString(r.queueId());
                out.writeString(r.partitionId());
                out.writeString(r.queue());
                out.writeString(r.namespace());
                out.writeString(r.task());
                writeOptions(out, r.options());
            }
            case QUEUE_DELETED -> {
                Result.QueueDeleted r = (Result.QueueDeleted) result;
                out.writeString(r.queue());
                out.writeBoolean(r.existed());
            }
            case PUSHED -> {
                List<Result.PushOutcome> outcomes = ((Result.Pushed) result).outcomes();
                if (writeListHeader(out, outcomes)) {
                    for (Result.PushOutcome o : outcomes) {
                        if (writePresence(out, o)) {
                            out.writeInt(o.index());
                            out.writeString(o.transactionId());
                            out.writeByte(pushStatusCode(o.status()));
                            out.writeString(o.messageId());
                            out.writeString(o.partitionId());
                            out.writeString(o.traceId());
                            out.writeString(o.queue());
                        }
                    }
                }
            }
            case POPPED -> {
                Result.Popped r = (Result.Popped) result;
                out.writeString(r.queue());
                out.writeString(r.partition());
                out.writeString(r.partitionId());
                out.writeString(r.leaseId());
                out.writeString(r.group());
                if (writeListHeader(out, r.messages())) {
                    for (Result.Delivery d : r.messages()) {
                        if (writePresence(out, d)) {
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
                }
                out.writeInt(r.partitionsClaimed());
            }
            case ACKED -> {
                List<Result.AckOutcome> outcomes = ((Result.Acked) result).outcomes();
                if (writeListHeader(out, outcomes)) {
                    for (Result.AckOutcome o : outcomes) {
                        if (writePresence(out, o)) {
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
                }
            }
            case TRANSACTION_DONE -> {
                Result.TransactionDone r = (Result.TransactionDone) result;
                out.writeBoolean(r.success());
                out.writeString(r.error());
                if (writeListHeader(out, r.results())) {
                    for (Result.TxOutcome o : r.results()) {
                        if (writePresence(out, o)) {
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
                }
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
                writeStrings(out, r.missing());
                out.writeLong(r.remaining());
            }
            case FAILED_JOBS_REMOVED -> {
                Result.FailedJobsRemoved removed = (Result.FailedJobsRemoved) result;
                out.writeInt(removed.removed());
                out.writeBoolean(removed.more());
            }
            default -> throw new CodecException("unhandled result op " + op);
        }
    }

    private static Result readResult(ByteSource in) {
        int code = in.readByte();
        if (code == 0) {
            return null;
        }
        ResultOp op = ResultOp.ofCode(code, in);
        return switch (op) {
            case REJECTED -> new Result.Rejected(readRejection(in), in.readString());
            case CONFIGURED -> new Result.Configured(in.readString(), in.readString(), in.readString(),
                    in.readString(), in.readString(), readOptions(in));
            case QUEUE_DELETED -> new Result.QueueDeleted(in.readString(), in.readBoolean());
            case PUSHED -> {
                int n = readListHeader(in, "push outcomes");
                List<Result.PushOutcome> outcomes = null;
                if (n >= 0) {
                    outcomes = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        outcomes.add(!readPresence(in, "push outcome") ? null
                                : new Result.PushOutcome(in.readInt(), in.readString(), readPushStatus(in),
                                        in.readString(), in.readString(), in.readString(), in.readString()));
                    }
                }
                yield new Result.Pushed(freeze(outcomes));
            }
            case POPPED -> {
                String queue = in.readString();
                String partition = in.readString();
                String partitionId = in.readString();
                String leaseId = in.readString();
                String group = in.readString();
                int n = readListHeader(in, "deliveries");
                List<Result.Delivery> messages = null;
                if (n >= 0) {
                    messages = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        messages.add(!readPresence(in, "delivery") ? null
                                : new Result.Delivery(in.readString(), in.readString(), in.readString(),
                                        in.readString(), in.readString(), in.readLong(), in.readString(),
                                        in.readString(), in.readString(), in.readString(), in.readInt()));
                    }
                }
                yield new Result.Popped(queue, partition, partitionId, leaseId, group, freeze(messages),
                        in.readInt());
            }
            case ACKED -> {
                int n = readListHeader(in, "ack outcomes");
                List<Result.AckOutcome> outcomes = null;
                if (n >= 0) {
                    outcomes = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        outcomes.add(!readPresence(in, "ack outcome") ? null
                                : new Result.AckOutcome(in.readInt(), in.readString(), in.readBoolean(),
                                        in.readString(), in.readString(), in.readString(), in.readBoolean(),
                                        in.readBoolean()));
                    }
                }
                yield new Result.Acked(freeze(outcomes));
            }
            case TRANSACTION_DONE -> {
                boolean success = in.readBoolean();
                String error = in.readString();
                int n = readListHeader(in, "transaction outcomes");
                List<Result.TxOutcome> outcomes = null;
                if (n >= 0) {
                    outcomes = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        outcomes.add(!readPresence(in, "transaction outcome") ? null
                                : new Result.TxOutcome(in.readInt(), in.readString(), in.readBoolean(),
                                        in.readString(), in.readString(), in.readString(), in.readString(),
                                        in.readString(), in.readBoolean()));
                    }
                }
                yield new Result.TransactionDone(success, error, freeze(outcomes));
            }
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
            case FAILED_JOBS_RETRIED -> new Result.FailedJobsRetried(in.readInt(), readStrings(in), in.readLong());
            case FAILED_JOBS_REMOVED -> new Result.FailedJobsRemoved(in.readInt(), in.readBoolean());
        };
    }

    // ------------------------------------------------------------------ enums: stable codes

    private static int ackStatusCode(AckStatus status) {
        if (status == null) {
            return 0;
        }
        return switch (status) {
            case COMPLETED -> 1;
            case FAILED -> 2;
            case DLQ -> 3;
            case RETRY -> 4;
            case RELEASE -> 5;
        };
    }

    private static AckStatus readAckStatus(ByteSource in) {
        int code = in.readByte();
        return switch (code) {
            case 0 -> null;
            case 1 -> AckStatus.COMPLETED;
            case 2 -> AckStatus.FAILED;
            case 3 -> AckStatus.DLQ;
            case 4 -> AckStatus.RETRY;
            case 5 -> AckStatus.RELEASE;
            default -> throw unknownEnum("ack status", code, in);
        };
    }

    private static int subscriptionModeCode(SubscriptionMode mode) {
        if (mode == null) {
            return 0;
        }
        return switch (mode) {
            case ALL -> 1;
            case NEW -> 2;
            case FROM -> 3;
        };
    }

    private static SubscriptionMode readSubscriptionMode(ByteSource in) {
        int code = in.readByte();
        return switch (code) {
            case 0 -> null;
            case 1 -> SubscriptionMode.ALL;
            case 2 -> SubscriptionMode.NEW;
            case 3 -> SubscriptionMode.FROM;
            default -> throw unknownEnum("subscription mode", code, in);
        };
    }

    private static int pushStatusCode(Result.PushStatus status) {
        if (status == null) {
            return 0;
        }
        return switch (status) {
            case QUEUED -> 1;
            case DUPLICATE -> 2;
            case BUFFERED -> 3;
        };
    }

    private static Result.PushStatus readPushStatus(ByteSource in) {
        int code = in.readByte();
        return switch (code) {
            case 0 -> null;
            case 1 -> Result.PushStatus.QUEUED;
            case 2 -> Result.PushStatus.DUPLICATE;
            case 3 -> Result.PushStatus.BUFFERED;
            default -> throw unknownEnum("push status", code, in);
        };
    }

    /** Rejections carry their own stable {@link Rejection#code()}; 0 is null. */
    private static Rejection readRejection(ByteSource in) {
        int code = in.readByte();
        if (code == 0) {
            return null;
        }
        try {
            return Rejection.ofCode(code);
        } catch (IllegalArgumentException e) {
            throw unknownEnum("rejection", code, in);
        }
    }

    private static CodecException unknownEnum(String type, int code, ByteSource in) {
        return new CodecException("unknown " + type + " code " + code + " at offset " + (in.position() - 1)
                + " of " + in.what() + " (was it written by a newer Regina?)");
    }

    // ------------------------------------------------------------------ helpers

    private static boolean writePresence(ByteSink out, Object value) {
        out.writeByte(value == null ? 0 : 1);
        return value != null;
    }

    private static boolean readPresence(ByteSource in, String what) {
        int flag = in.readByte();
        if (flag > 1) {
            throw new CodecException(in.what() + " is corrupt: presence flag " + flag + " for " + what
                    + " at offset " + (in.position() - 1));
        }
        return flag == 1;
    }

    /** Writes the count (-1 for a null list); true when elements follow. */
    private static boolean writeListHeader(ByteSink out, List<?> list) {
        out.writeInt(list == null ? -1 : list.size());
        return list != null;
    }

    /** -1 for a null list, else the element count (each element takes at least one byte). */
    private static int readListHeader(ByteSource in, String field) {
        int position = in.position();
        int count = in.readInt();
        if (count == -1) {
            return -1;
        }
        if (count < 0 || count > in.remaining()) {
            throw new CodecException(in.what() + " is corrupt: " + field + " count " + count + " at offset "
                    + position + " with " + in.remaining() + " byte(s) left");
        }
        return count;
    }

    private static void writeStrings(ByteSink out, List<String> strings) {
        if (writeListHeader(out, strings)) {
            for (String s : strings) {
                out.writeString(s);
            }
        }
    }

    private static List<String> readStrings(ByteSource in) {
        int n = readListHeader(in, "strings");
        if (n < 0) {
            return null;
        }
        String[] strings = new String[n];
        for (int i = 0; i < n; i++) {
            strings[i] = in.readString();
        }
        return Collections.unmodifiableList(Arrays.asList(strings));
    }

    /** An unmodifiable view that, unlike {@code List.copyOf}, keeps null elements. */
    private static <T> List<T> freeze(List<T> list) {
        return list == null ? null : Collections.unmodifiableList(list);
    }
}
