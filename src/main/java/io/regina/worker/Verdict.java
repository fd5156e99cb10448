package io.regina.worker;

import io.regina.client.Ack;
import io.regina.client.Message;

import java.time.Duration;

/**
 * How a delivery ends, and the ack that says it to the broker. Retries are decided here, by the worker, from
 * the message's {@code attempts}, and never left to the broker's {@code retryLimit}: its {@code failed}
 * retry hands the whole prefetched batch back, where a worker needs one job back, after its own backoff.
 * <table>
 * <caption>verdicts and their acks</caption>
 * <tr><th>verdict</th><th>ack</th><th>attempt</th></tr>
 * <tr><td>{@link Complete}</td><td>{@code completed}</td><td>-</td></tr>
 * <tr><td>{@link Retry}</td><td>{@code failed} with {@code retryAfterMs} (the error recorded), this job alone
 *     back after its backoff</td><td>counted</td></tr>
 * <tr><td>{@link Release}</td><td>{@code release} with {@code delayMs}</td><td>counted</td></tr>
 * <tr><td>{@link Fail}</td><td>{@code dlq} with the reason: one failed-jobs row</td><td>-</td></tr>
 * <tr><td>{@link HandBack}</td><td>{@code retry}: never started, back at once</td><td>not counted</td></tr>
 * </table>
 */
public sealed interface Verdict {

    Ack ack(Message message);

    record Complete() implements Verdict {
        @Override
        public Ack ack(Message message) {
            return Ack.completed(message);
        }
    }

    /** Failed, to run again after {@code delay}. */
    record Retry(Duration delay, String error) implements Verdict {
        @Override
        public Ack ack(Message message) {
            // retryAfterMs 0 would be the broker's batch retry: 1 ms is "now" for this job alone
            return Ack.failed(message, error, delay.isZero() ? Duration.ofMillis(1) : delay);
        }
    }

    record Release(Duration delay) implements Verdict {
        @Override
        public Ack ack(Message message) {
            return Ack.release(message, delay);
        }
    }

    /** Failed for good: {@code reason} is the failed-jobs row's error; {@code cause} the exception, if one. */
    record Fail(String reason, Throwable cause) implements Verdict {
        @Override
        public Ack ack(Message message) {
            return Ack.dlq(message, reason);
        }
    }

    record HandBack() implements Verdict {
        @Override
        public Ack ack(Message message) {
            return Ack.retry(message);
        }
    }
}
