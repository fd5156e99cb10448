package io.regina.raft;

import io.regina.queue.Result;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The stable op code of each result type, the first byte of an encoded result; 0 encodes a null
 * result. Append only: never renumber or reuse a code.
 */
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
    FAILED_JOBS_REMOVED(18, Result.FailedJobsRemoved.class),
    ACKED_AND_POPPED(19, Result.AckedAndPopped.class),
    DISK_ALARMS(20, Result.DiskAlarms.class);

    private static final Map<Class<?>, ResultOp> BY_TYPE = new IdentityHashMap<>();
    private static final ResultOp[] BY_CODE = new ResultOp[
            Arrays.stream(values()).mapToInt(ResultOp::code).max().orElse(0) + 1];

    static {
        for (ResultOp op : values()) {
            BY_TYPE.put(op.type, op);
            BY_CODE[op.code] = op;
        }
    }

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
        ResultOp op = BY_TYPE.get(result.getClass());
        if (op == null) {
            throw new CodecException("no op code for result type " + result.getClass().getName()
                    + ": add one at the end of ResultOp");
        }
        return op;
    }

    static ResultOp ofCode(int code, ByteSource in) {
        if (code < 1 || code >= BY_CODE.length || BY_CODE[code] == null) {
            throw new CodecException("unknown result op code " + code + " at offset " + (in.position() - 1)
                    + " of " + in.what() + " (this node knows 1.." + values().length
                    + "; was it written by a newer Regina?)");
        }
        return BY_CODE[code];
    }
}
