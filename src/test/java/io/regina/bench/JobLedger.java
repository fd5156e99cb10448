package io.regina.bench;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * Counts, per job of a set, deliveries and returned acks, so that every lane run can prove the exact job set
 * completed (none missing, none twice). It is also the lanes' {@link QueueSystem.JobHandler}.
 */
final class JobLedger implements QueueSystem.JobHandler {

    private final JobSet jobs;
    private final int jobMillis;
    private final IntConsumer onAck;
    private final AtomicIntegerArray deliveries;
    private final AtomicIntegerArray acks;
    private final AtomicInteger completed = new AtomicInteger();
    private final AtomicInteger unexpected = new AtomicInteger();
    private final AtomicInteger failures = new AtomicInteger();
    private final AtomicLong firstDelivery = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastAck = new AtomicLong();
    private volatile String firstFailure;

    /** {@code onAck} gets the index of each job whose ack returned, on the worker's thread. */
    JobLedger(JobSet jobs, int jobMillis, IntConsumer onAck) {
        this.jobs = jobs;
        this.jobMillis = jobMillis;
        this.onAck = onAck;
        this.deliveries = new AtomicIntegerArray(jobs.count());
        this.acks = new AtomicIntegerArray(jobs.count());
    }

    @Override
    public void delivered(String id) {
        int i = jobs.index(id);
        if (i < 0) {
            unexpected.incrementAndGet();
        } else {
            deliveries.incrementAndGet(i);
        }
        firstDelivery.accumulateAndGet(System.nanoTime(), Math::min);
    }

    @Override
    public void run(String id) throws InterruptedException {
        if (jobMillis > 0) {
            Thread.sleep(jobMillis);
        }
    }

    @Override
    public void acked(String id) {
        int i = jobs.index(id);
        if (i < 0) {
            return;
        }
        acks.incrementAndGet(i);
        completed.incrementAndGet();
        lastAck.accumulateAndGet(System.nanoTime(), Math::max);
        onAck.accept(i);
    }

    @Override
    public void failed(String what) {
        failures.incrementAndGet();
        if (firstFailure == null) {
            firstFailure = what;
        }
    }

    int completed() {
        return completed.get();
    }

    long firstDeliveryNanos() {
        return firstDelivery.get();
    }

    long lastAckNanos() {
        return lastAck.get();
    }

    /** Waits until {@code expected} acks returned or the deadline passed; true when they did. */
    boolean awaitCompleted(int expected, long deadlineNanos) throws InterruptedException {
        while (completed.get() < expected) {
            if (System.nanoTime() > deadlineNanos) {
                return false;
            }
            Thread.sleep(2);
        }
        return true;
    }

    /**
     * Null when exactly the jobs {@code wanted} accepts were acked, each once, with no failure; otherwise what
     * went wrong.
     */
    String problem(java.util.function.IntPredicate wanted) {
        int missing = 0;
        int twice = 0;
        int stray = 0;
        for (int i = 0; i < jobs.count(); i++) {
            int n = acks.get(i);
            if (wanted.test(i)) {
                if (n == 0) {
                    missing++;
                } else if (n > 1) {
                    twice++;
                }
            } else if (n > 0) {
                stray++;
            }
        }
        if (missing == 0 && twice == 0 && stray == 0 && unexpected.get() == 0 && failures.get() == 0) {
            return null;
        }
        return "job set check failed: " + missing + " missing, " + twice + " completed twice, " + stray
                + " never dispatched but completed, " + unexpected.get() + " unknown ids delivered, "
                + failures.get() + " worker failures" + (firstFailure == null ? "" : " (first: " + firstFailure + ")");
    }
}
