package io.regina.queue;

import io.regina.queue.Command.PushItem;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The whole broker: queues, partitions, consumer groups, leases, delayed messages, failed jobs.
 *
 * <p>{@link #apply(Command, long)} is a deterministic function of this state, the command and the
 * leader-stamped time; only the state machine's apply thread calls it. Timers (lease expiry,
 * delayed messages, readiness re-checks) fire lazily at the start of every apply and on each
 * {@link Command.Tick}.
 *
 * <p>This class holds the indexes and routes each command to the handler that decides it; the rules
 * live in the handlers, each named for what it decides: {@link QueueAdministration}, {@link Pushes},
 * {@link Deliveries}, {@link Acks}, {@link Transactions}, {@link Retention}, {@link FailedJobOperations},
 * {@link GroupAdministration}, {@link Maintenance} and {@link Traces}. Every change of a message's
 * state for a group is a {@link MessageState} move. Readers never see this class: they get its
 * {@link #view()} under the caller's read lock.
 */
public final class BrokerState {

    final Map<String, BrokerQueue> queues = new LinkedHashMap<>();
    final Map<String, Partition> partitionsById = new HashMap<>();
    final Map<String, Lease> leases = new LinkedHashMap<>();
    final FailedJobTable failedJobs = new FailedJobTable();
    final Map<String, Long> groupSubscriptions = new LinkedHashMap<>();
    final Deque<Trace> traces = new ArrayDeque<>();
    final List<PushItem> buffered = new ArrayList<>();
    final Timers timers = new Timers(timer -> timer.kind() != Timers.Kind.LEASE
            || leases.get(timer.key()) == timer.target());
    final MessageStore bodies;
    boolean maintenanceMode;
    boolean popMaintenanceMode;
    long nextPendingSeq = 1;
    long lastNow;
    /** Queues where messages may have become deliverable since the last drain (not state). */
    final Set<String> deliverable = new LinkedHashSet<>();

    final QueueAdministration queueAdministration = new QueueAdministration(this);
    final Pushes pushes = new Pushes(this);
    final Deliveries deliveries = new Deliveries(this);
    final Acks acks = new Acks(this);
    final Transactions transactions = new Transactions(this);
    final Retention retention = new Retention(this);
    final FailedJobOperations failedJobOperations = new FailedJobOperations(this);
    final GroupAdministration groupAdministration = new GroupAdministration(this);
    final Maintenance maintenance = new Maintenance(this);
    final Traces traceLog = new Traces(this);
    /** Not in the snapshot: each raising node refreshes its alarm, see {@link DiskAlarms}. */
    final DiskAlarms diskAlarms = new DiskAlarms();
    private final Dispatch dispatch = new Dispatch();
    private final StateView view = new StateView(this);

    /** A recorded trace event. */
    public record Trace(String traceId, String transactionId, String partitionId, String consumerGroup,
                        List<String> traceNames, String eventType, String data, long createdAt) { }

    public BrokerState() {
        this(new SlabMessageStore());
    }

    public BrokerState(MessageStore bodies) {
        this.bodies = bodies;
    }

    public Result apply(Command command, long now) {
        now = Math.max(now, lastNow);
        lastNow = now;
        deliveries.fireTimers(now);
        return command.accept(dispatch, now);
    }

    /** Names of queues where messages may have become deliverable since the last call. */
    public List<String> drainDeliverable() {
        if (deliverable.isEmpty()) {
            return List.of();
        }
        List<String> names = new ArrayList<>(deliverable);
        deliverable.clear();
        return names;
    }

    /**
     * Lets the failed-jobs word index lag the applies ({@link FailedJobTable#deferIndexing}): whoever
     * applies then catches it up with {@link #catchUpFailedJobIndex}, between applies and before every read.
     */
    public void deferFailedJobIndex() {
        failedJobs.deferIndexing();
    }

    /** How many row changes the failed-jobs index has still to make. */
    public int failedJobIndexBehind() {
        return failedJobs.indexBehind();
    }

    /** Makes up to {@code max} of the changes the failed-jobs index has still to make; whether some are left. */
    public boolean catchUpFailedJobIndex(int max) {
        return failedJobs.catchUp(max);
    }

    /** The read-only face of this state: what {@link CommandBus#read} hands to queries. */
    public BrokerView view() {
        return view;
    }

    /**
     * When the earliest lease expiry, delayed message or re-check is due (epoch ms), or
     * {@code Long.MAX_VALUE}: the leader ticks then, so timers fire on time on an idle broker.
     */
    public long nextTimerDue() {
        return timers.nextDue();
    }

    /**
     * Whether the leader must also tick every tick interval: while a queue drops messages by age, and while
     * a disk alarm is up (it lapses by the state's clock, which only entries move). Otherwise an idle
     * broker writes nothing: its timers say when they are due.
     */
    public boolean needsRegularTicks() {
        if (!diskAlarms.raised(lastNow).isEmpty()) {
            return true;
        }
        for (BrokerQueue queue : queues.values()) {
            if (Retention.evictsByAge(queue)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- indexes shared by the handlers

    BrokerQueue queueOrCreate(String name) {
        BrokerQueue queue = queues.get(name);
        return queue != null ? queue : createQueue(name, null, null, QueueOptions.defaults());
    }

    BrokerQueue createQueue(String name, String namespace, String task, QueueOptions options) {
        BrokerQueue queue = new BrokerQueue(name,
                namespace != null ? namespace : BrokerQueue.defaultNamespace(name),
                task != null ? task : BrokerQueue.defaultTask(name), options);
        queues.put(name, queue);
        queue.groups.put(Group.QUEUE_MODE, new Group(Group.QUEUE_MODE, queue, 0));
        return queue;
    }

    /** The queue's partition of that name, created with a cursor for every group when it is new. */
    Partition partition(BrokerQueue queue, String name) {
        Partition partition = queue.partitions.get(name);
        if (partition == null) {
            partition = new Partition(queue, name, 0);
            queue.partitions.put(name, partition);
            partitionsById.put(partition.id, partition);
            for (Group group : queue.groups.values()) {
                group.cursors.put(name, new Cursor(partition, group, partition.log.headSeq()));
            }
        }
        return partition;
    }

    // ---------------------------------------------------------------- snapshot

    public void writeTo(StateWriter out) {
        StateImage.write(this, out);
    }

    /**
     * Writes the image to {@code out} but for an immutable tail (the failed-jobs rows), which the
     * returned writer appends later, from any thread, whatever has been applied meanwhile; together the
     * same bytes as {@link #writeTo}.
     */
    public Consumer<StateWriter> captureTo(StateWriter out) {
        return StateImage.capture(this, out);
    }

    public static BrokerState readFrom(StateReader in) {
        return StateImage.read(in);
    }

    /** Routes each command to its handler; {@link Command.Handler} makes the routing exhaustive. */
    private final class Dispatch implements Command.Handler<Result> {
        @Override
        public Result configure(Command.Configure command, long now) {
            return queueAdministration.configure(command);
        }

        @Override
        public Result deleteQueue(Command.DeleteQueue command, long now) {
            return queueAdministration.deleteQueue(command.queue());
        }

        @Override
        public Result pauseQueue(Command.PauseQueue command, long now) {
            return queueAdministration.pause(command);
        }

        @Override
        public Result push(Command.Push command, long now) {
            return pushes.push(command.items(), now);
        }

        @Override
        public Result pop(Command.Pop command, long now) {
            return deliveries.pop(command, 0, now);
        }

        @Override
        public Result ackAndPop(Command.AckAndPop command, long now) {
            Result.Rejected fenced = acks.fence(command.acks(), now);
            if (fenced != null) {
                return fenced;
            }
            Result.Acked acked = acks.ack(command.acks(), now);
            return new Result.AckedAndPopped(acked, deliveries.pop(command.pop(), command.leaseSeconds(), now));
        }

        @Override
        public Result extendLease(Command.ExtendLease command, long now) {
            return deliveries.extendLease(command, now);
        }

        @Override
        public Result ack(Command.Ack command, long now) {
            return acks.ack(command.items(), now);
        }

        @Override
        public Result transaction(Command.Transaction command, long now) {
            return transactions.apply(command, now);
        }

        @Override
        public Result recordTrace(Command.RecordTrace command, long now) {
            return traceLog.record(command, now);
        }

        @Override
        public Result deleteGroup(Command.DeleteGroup command, long now) {
            return groupAdministration.deleteGroup(command);
        }

        @Override
        public Result seek(Command.Seek command, long now) {
            return groupAdministration.seek(command, now);
        }

        @Override
        public Result setSubscription(Command.SetSubscription command, long now) {
            return groupAdministration.setSubscription(command);
        }

        @Override
        public Result setMaintenance(Command.SetMaintenance command, long now) {
            return maintenance.set(command, now);
        }

        @Override
        public Result tick(Command.Tick command, long now) {
            return retention.tick(now);
        }

        @Override
        public Result clearQueue(Command.ClearQueue command, long now) {
            return retention.clear(command.queue());
        }

        @Override
        public Result retryFailedJobs(Command.RetryFailedJobs command, long now) {
            return failedJobOperations.retryAll(command, now);
        }

        @Override
        public Result retryFailedJob(Command.RetryFailedJob command, long now) {
            return failedJobOperations.retryOne(command, now);
        }

        @Override
        public Result forgetFailedJob(Command.ForgetFailedJob command, long now) {
            return failedJobOperations.forgetOne(command.uuid());
        }

        @Override
        public Result removeFailedJobs(Command.RemoveFailedJobs command, long now) {
            return failedJobOperations.removeOld(command, now);
        }

        @Override
        public Result diskAlarm(Command.DiskAlarm command, long now) {
            return diskAlarms.set(command, now);
        }
    }
}
