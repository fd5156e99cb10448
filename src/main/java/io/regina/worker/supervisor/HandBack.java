package io.regina.worker.supervisor;

import io.regina.client.Ack;
import io.regina.client.AckStatus;
import io.regina.client.Acked;
import io.regina.client.ReginaClient;
import io.regina.client.ReginaException;
import io.regina.client.Transaction;
import io.regina.client.TransactionResult;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Finishes a dead worker's business with the broker, lease by lease, as its journal says (see
 * {@link io.regina.worker.Journal}): the acks it journaled but never saw applied are sent (each fenced by its
 * own leaseId); then, in one transaction fenced by {@code requiredLeases}, the job that was running is
 * released at once, its attempt counted (it may be what killed the worker: its next delivery is refused once
 * past its tries), and the jobs never started are handed back with {@code retry}, uncharged. Releasing the
 * running job rather than waiting for its lease to expire gives its whole partition back at once, so the
 * unstarted jobs of the batch run within seconds. A lease that has expired, or been leased again, refuses
 * the transaction as a whole: a stale hand-back never settles someone else's delivery.
 */
final class HandBack {
    private final ReginaClient client;
    private final Consumer<String> log;

    HandBack(ReginaClient client, Consumer<String> log) {
        this.client = client;
        this.log = log;
    }

    /** {@code releaseDelay}: when the running job comes back (its backoff, after a timeout kill). */
    void settle(LeaseLedger.Unsettled lease, Duration releaseDelay) {
        try {
            if (!lease.unsent().isEmpty()) {
                List<Acked> answers = client.ack(lease.unsent());
                long applied = answers.stream().filter(Acked::success).count();
                log.accept("sent " + applied + " of " + lease.unsent().size() + " journaled acks of lease "
                        + lease.leaseId());
            }
            if (lease.interrupted() == null && lease.unstarted().isEmpty()) {
                return;
            }
            Transaction transaction = new Transaction().requireLease(lease.leaseId());
            if (lease.interrupted() != null) {
                transaction.ack(ack(lease.leaseId(), lease.interrupted(), AckStatus.RELEASE, releaseDelay.toMillis()));
            }
            lease.unstarted().forEach(job -> transaction.ack(ack(lease.leaseId(), job, AckStatus.RETRY, null)));
            TransactionResult result = client.transaction(transaction);
            log.accept(result.success()
                    ? "lease " + lease.leaseId() + ": " + (lease.interrupted() == null ? "no job"
                            : "job " + lease.interrupted().transactionId()) + " released, " + lease.unstarted().size()
                            + " unstarted handed back"
                    : "lease " + lease.leaseId() + " hand-back refused (" + result.error() + "): its jobs come back"
                            + " when it expires");
        } catch (ReginaException e) {
            log.accept("lease " + lease.leaseId() + " hand-back failed (" + e.getMessage() + "): its jobs come back"
                    + " when it expires");
        }
    }

    private static Ack ack(String leaseId, LeaseLedger.Held job, AckStatus status, Long delayMs) {
        return new Ack(job.transactionId(), job.partitionId(), status, null, job.consumerGroup(), leaseId, delayMs,
                null);
    }
}
