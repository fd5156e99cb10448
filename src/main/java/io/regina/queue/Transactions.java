package io.regina.queue;

import io.regina.queue.Command.PushItem;
import io.regina.queue.Result.AckOutcome;
import io.regina.queue.Result.TxOutcome;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides transactions: every operation is checked against the state before any applies (required
 * leases, duplicate transactionIds, capacity, and each ack as {@link Acks#decide} judges it), then
 * the pushes and acks apply in order. All or nothing.
 */
final class Transactions {

    private final BrokerState state;

    Transactions(BrokerState state) {
        this.state = state;
    }

    Result apply(Command.Transaction c, long now) {
        String invalid = validate(c, now);
        if (invalid != null) {
            return Result.TransactionDone.refused(invalid);
        }
        List<TxOutcome> results = new ArrayList<>();
        Map<Cursor, Claim> handedBack = new HashMap<>();
        int index = 0;
        for (Command.TxOperation operation : c.operations()) {
            if (operation instanceof Command.TxPush push) {
                for (PushItem item : push.items()) {
                    results.add(TxOutcome.pushed(index, state.pushes.pushOne(index, item, now)));
                    index++;
                }
            } else if (operation instanceof Command.TxAck ack) {
                AckOutcome outcome = state.acks.ackOne(index, ack.item(), now, true, handedBack);
                results.add(TxOutcome.acked(index, outcome, ack.item().partitionId()));
                index++;
            }
        }
        return Result.TransactionDone.committed(results);
    }

    /** Why the transaction cannot apply, or null when every operation can. */
    private String validate(Command.Transaction c, long now) {
        for (String leaseId : c.requiredLeases()) {
            Lease lease = state.leases.get(leaseId);
            if (lease == null || lease.expiresAt <= now) {
                return Rejection.REQUIRED_LEASE_INACTIVE.message(leaseId);
            }
        }
        List<PushItem> pushes = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (Command.TxOperation operation : c.operations()) {
            if (operation instanceof Command.TxPush push) {
                for (PushItem item : push.items()) {
                    BrokerQueue queue = state.queues.get(item.queue());
                    if (Pushes.duplicateHolder(queue, item) != null || !keys.add(item.queue() + "\u0000"
                            + Pushes.dedupScope(queue, item) + "\u0000" + item.transactionId())) {
                        return Rejection.DUPLICATE_TRANSACTION.message(item.transactionId(), item.queue());
                    }
                    pushes.add(item);
                }
            } else if (operation instanceof Command.TxAck ack) {
                Rejection refusal = state.acks.decide(ack.item(), now, Map.of()).refusal();
                if (refusal != null) {
                    return Rejection.TRANSACTION_ACK_REFUSED.message(refusal.message(), ack.item().transactionId());
                }
            }
        }
        Result.Rejected full = state.pushes.checkCapacity(pushes);
        return full == null ? null : full.message();
    }
}
