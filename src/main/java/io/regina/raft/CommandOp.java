package io.regina.raft;

import io.regina.queue.Command;
import io.regina.queue.FailedJobSelector;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The stable op code of each command type, the first byte of an encoded command. Append only:
 * never renumber or reuse a code. Every permitted {@link Command} type has one (a test checks it), the
 * first listed for its type unless {@link #of} picks a later one.
 */
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
    REMOVE_FAILED_JOBS(19, Command.RemoveFailedJobs.class),
    ACK_AND_POP(20, Command.AckAndPop.class),
    /**
     * A {@link Command.RetryFailedJobs} of a {@link FailedJobSelector.Search}, text by whole words. Under
     * {@link #RETRY_FAILED_JOBS} a text filter is a substring ({@link FailedJobSelector.Filter}), as it was
     * when entries of that op were acknowledged: the new meaning needed a new op for replays to agree.
     */
    RETRY_FAILED_JOBS_SEARCH(21, Command.RetryFailedJobs.class),
    DISK_ALARM(22, Command.DiskAlarm.class);

    private static final Map<Class<?>, CommandOp> BY_TYPE = new IdentityHashMap<>();
    private static final CommandOp[] BY_CODE = new CommandOp[
            Arrays.stream(values()).mapToInt(CommandOp::code).max().orElse(0) + 1];

    static {
        for (CommandOp op : values()) {
            BY_TYPE.putIfAbsent(op.type, op);
            BY_CODE[op.code] = op;
        }
    }

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
        if (command instanceof Command.RetryFailedJobs retry && retry.selector() instanceof FailedJobSelector.Search) {
            return RETRY_FAILED_JOBS_SEARCH;
        }
        CommandOp op = BY_TYPE.get(command.getClass());
        if (op == null) {
            throw new CodecException("no op code for command type " + command.getClass().getName()
                    + ": add one at the end of CommandOp");
        }
        return op;
    }

    static CommandOp ofCode(int code, ByteSource in) {
        if (code < 1 || code >= BY_CODE.length || BY_CODE[code] == null) {
            throw new CodecException("unknown command op code " + code + " at offset " + (in.position() - 1)
                    + " of " + in.what() + " (this node knows 1.." + values().length
                    + "; was it written by a newer Regina?)");
        }
        return BY_CODE[code];
    }
}
