package io.regina.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

import java.util.ArrayList;
import java.util.List;

/**
 * Pushes and acks applied all or nothing (API.md A3 "Transaction"), in the order added. Every lease in
 * {@code requiredLeases} must still be held when it applies, else nothing applies: that fences a hand-back
 * whose acks carry no leaseId, and pushes made on the strength of a lease.
 */
public final class Transaction {
    private final List<Operation> operations = new ArrayList<>();
    private final List<String> requiredLeases = new ArrayList<>();

    /** One operation on the wire: {@code {type:"push", items}} or {@code {type:"ack", ...the ack}}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Operation(String type, List<Job> items, @JsonUnwrapped Ack ack) {
    }

    record Body(List<Operation> operations, List<String> requiredLeases) {
    }

    public Transaction push(Job... jobs) {
        List<Job> items = new ArrayList<>();
        for (Job job : jobs) {
            items.add(job.withTransactionId());
        }
        operations.add(new Operation("push", items, null));
        return this;
    }

    public Transaction ack(Ack ack) {
        operations.add(new Operation("ack", null, ack));
        return this;
    }

    public Transaction requireLease(String leaseId) {
        requiredLeases.add(leaseId);
        return this;
    }

    Body body() {
        return new Body(List.copyOf(operations), List.copyOf(requiredLeases));
    }
}
