package io.regina.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Decides what happens to failed-job rows: retried (back to their queue and partition as a fresh
 * delivery for their group, in bounded steps), forgotten one by one, or removed by age.
 */
final class FailedJobOperations {

    private final BrokerState state;

    FailedJobOperations(BrokerState state) {
        this.state = state;
    }

    Result retryAll(Command.RetryFailedJobs c, long now) {
        int limit = Math.max(1, c.limit());
        FailedJobTable rows = state.failedJobs;
        FailedJobSelector selector = c.selector();
        if (selector instanceof FailedJobSelector.Ids ids) {
            List<String> missing = new ArrayList<>();
            int retried = 0;
            for (String uuid : ids.uuids()) {
                FailedJob row = rows.get(uuid);
                if (row == null) {
                    missing.add(uuid);
                } else {
                    retry(row, row.data(), now);
                    retried++;
                }
            }
            return new Result.FailedJobsRetried(retried, missing, 0);
        }
        List<String> chosen;
        LongSupplier matching;
        if (selector instanceof FailedJobSelector.Filter legacy) {
            chosen = rows.selectContaining(legacy.queue(), legacy.text(), legacy.from(), legacy.to(), limit);
            matching = () -> rows.countContaining(legacy.queue(), legacy.text(), legacy.from(), legacy.to());
        } else {
            FailedJobSelector.Search search = selector instanceof FailedJobSelector.Search s ? s
                    : new FailedJobSelector.Search(null, null, 0, 0);
            if (search.text() != null) {
                // Text is matched through the index: a lagging one catches up, so the rows matching now are chosen.
                rows.catchUp(Integer.MAX_VALUE);
            }
            chosen = rows.select(search.queue(), search.text(), search.from(), search.to(), limit);
            matching = () -> rows.count(search.queue(), search.text(), search.from(), search.to());
        }
        for (String uuid : chosen) {
            retry(rows.get(uuid), rows.get(uuid).data(), now);
        }
        long remaining;
        if (selector instanceof FailedJobSelector.All) {
            remaining = rows.size();
        } else {
            remaining = chosen.size() < limit ? 0 : matching.getAsLong();
        }
        return new Result.FailedJobsRetried(chosen.size(), List.of(), remaining);
    }

    Result retryOne(Command.RetryFailedJob c, long now) {
        FailedJob row = state.failedJobs.get(c.uuid());
        if (row == null) {
            return Rejection.FAILED_JOB_NOT_FOUND.reject(c.uuid());
        }
        retry(row, c.data() != null ? c.data() : row.data(), now);
        return new Result.FailedJobsRetried(1, List.of(), 0);
    }

    /** Pushes a failed job back to its queue and partition as a fresh delivery for its group. */
    private void retry(FailedJob row, String data, long now) {
        MessageState.transition(MessageState.FAILED, MessageState.PENDING);
        state.failedJobs.remove(row.uuid());
        BrokerQueue queue = state.queueOrCreate(row.queue());
        Partition partition = state.partition(queue, row.partition());
        String onlyGroup = queue.groups.containsKey(row.consumerGroup()) ? row.consumerGroup() : null;
        state.pushes.append(partition, row.messageId(), row.transactionId(), row.traceId(), row.producerSub(),
                state.bodies.put(data), now, now, onlyGroup, 0, row.uuid());
    }

    Result forgetOne(String uuid) {
        if (!forget(uuid)) {
            return Rejection.FAILED_JOB_NOT_FOUND.reject(uuid);
        }
        return new Result.FailedJobsRemoved(1);
    }

    /** Removes a row: its message is gone for good. False when there is no such row. */
    boolean forget(String uuid) {
        if (state.failedJobs.get(uuid) == null) {
            return false;
        }
        MessageState.transition(MessageState.FAILED, MessageState.FORGOTTEN);
        state.failedJobs.remove(uuid);
        return true;
    }

    Result removeOld(Command.RemoveFailedJobs c, long now) {
        long cutoff = c.hours() > 0 ? now - c.hours() * 3_600_000L : Long.MAX_VALUE;
        int limit = Math.max(1, c.limit());
        List<String> doomed = new ArrayList<>();
        boolean more = false;
        for (FailedJob row : state.failedJobs.oldestFirst(c.queue())) {
            boolean old = c.strictlyOlder() ? row.failedAt() < cutoff : row.failedAt() <= cutoff;
            if (!old) {
                break;
            }
            if (doomed.size() == limit) {
                more = true;
                break;
            }
            doomed.add(row.uuid());
        }
        doomed.forEach(this::forget);
        return new Result.FailedJobsRemoved(doomed.size(), more);
    }
}
