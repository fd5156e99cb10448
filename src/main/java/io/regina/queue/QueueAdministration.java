package io.regina.queue;

/** Decides what happens to queues as a whole: configure (an upsert), delete, pause and resume. */
final class QueueAdministration {

    private final BrokerState state;

    QueueAdministration(BrokerState state) {
        this.state = state;
    }

    Result configure(Command.Configure c) {
        BrokerQueue queue = state.queues.get(c.queue());
        if (queue == null) {
            queue = state.createQueue(c.queue(), c.namespace(), c.task(), c.options());
        } else {
            queue.options = c.options();
            queue.namespace = c.namespace() != null ? c.namespace() : queue.namespace;
            queue.task = c.task() != null ? c.task() : queue.task;
        }
        Partition partition = state.partition(queue, "Default");
        return new Result.Configured(queue.id, partition.id, queue.name, queue.namespace, queue.task, queue.options);
    }

    /** Removes the queue with everything in it; its leases end and its failed-job rows are forgotten. */
    Result deleteQueue(String name) {
        BrokerQueue queue = state.queues.remove(name);
        if (queue == null) {
            return Result.QueueDeleted.absent(name);
        }
        for (Group group : queue.groups.values()) {
            for (Cursor cursor : group.cursors.values()) {
                state.deliveries.dropClaim(cursor);
            }
        }
        for (Partition partition : queue.partitions.values()) {
            state.partitionsById.remove(partition.id);
            for (Message message : partition.log.entries()) {
                state.bodies.remove(message.bodyRef);
            }
        }
        for (DelayedMessage waiting : queue.delayed.values()) {
            state.bodies.remove(waiting.bodyRef);
        }
        for (String uuid : state.failedJobs.uuidsOfQueue(name)) {
            state.failedJobOperations.forget(uuid);
        }
        return Result.QueueDeleted.deleted(name);
    }

    Result pause(Command.PauseQueue c) {
        BrokerQueue queue = state.queues.get(c.queue());
        if (queue == null) {
            return Rejection.QUEUE_NOT_FOUND.reject(c.queue());
        }
        queue.paused = c.paused();
        if (!c.paused()) {
            state.deliverable.add(queue.name);
        }
        return new Result.QueuePaused(queue.name, queue.paused);
    }
}
