package io.regina.worker;

import io.regina.client.Ack;
import io.regina.client.Message;
import io.regina.client.Popped;

/**
 * What a worker tells its supervisor, so that the supervisor can finish the worker's business when the
 * worker dies: one event per call, written and flushed before the worker goes on ({@link JournalLines}
 * writes one JSON object per line, e.g. on stdout of a {@link WorkerMain} child JVM).
 *
 * <table>
 * <caption>events, in the order a delivery sees them</caption>
 * <tr><th>{@code event}</th><th>fields</th><th>when</th></tr>
 * <tr><td>{@code leased}</td><td>{@code leaseId, jobs:[{transactionId, partitionId, consumerGroup, attempts}]}</td>
 *     <td>a pop answered: the worker holds these jobs under the lease, none started</td></tr>
 * <tr><td>{@code started}</td><td>{@code leaseId, transactionId, partitionId, attempt}</td>
 *     <td>right before the job runs</td></tr>
 * <tr><td>{@code finished}</td><td>{@code leaseId, transactionId, ack:{…the ack's body…}}</td>
 *     <td>the job ended; its ack is not yet known to be applied</td></tr>
 * <tr><td>{@code acked}</td><td>{@code leaseId, transactionId}</td><td>the broker answered that ack</td></tr>
 * <tr><td>{@code done}</td><td>{@code leaseId}</td><td>nothing of the lease is left in the worker</td></tr>
 * </table>
 *
 * When a worker dies, for each lease without {@code done} its supervisor hands back (ack {@code retry}
 * with the {@code leaseId}, or a transaction with {@code requiredLeases}, so a lease that has since
 * expired refuses it) the jobs never {@code started}; sends the journaled ack of the jobs {@code finished}
 * but not {@code acked}; and leaves a job {@code started} but not {@code finished} to the lease: it
 * crashed its worker and counts as an attempt. Every event also carries {@code at} (ISO-8601) and
 * {@code pid}.
 */
public interface Journal {

    /** Writes nothing: a worker inside an application, with no supervisor. */
    Journal NONE = new Journal() {
    };

    default void leased(Popped popped) {
    }

    default void started(Message message) {
    }

    default void finished(Message message, Ack ack) {
    }

    default void acked(Ack ack) {
    }

    default void done(String leaseId) {
    }
}
