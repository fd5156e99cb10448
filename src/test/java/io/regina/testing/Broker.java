package io.regina.testing;

import io.regina.queue.AckStatus;
import io.regina.queue.BrokerState;
import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.Ids;
import io.regina.queue.QueueOptions;
import io.regina.queue.Result;
import io.regina.queue.SubscriptionMode;
import io.regina.queue.Utf8Text;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link BrokerState} with a {@link ManualClock} and readable verbs, for domain tests:
 * {@code push("q", "a")}, {@code pop("q")}, {@code ack(delivery)}. Ids are made here, as the
 * submitting node makes them, and are deterministic.
 */
public final class Broker {

    private final ManualClock clock;
    private BrokerState state;
    private long sequence;

    public Broker() {
        this(new ManualClock());
    }

    public Broker(ManualClock clock) {
        this.clock = clock;
        this.state = new BrokerState();
    }

    public BrokerState state() {
        return state;
    }

    /** What queries see of the state now. */
    public BrokerView view() {
        return state.view();
    }

    public ManualClock clock() {
        return clock;
    }

    public long now() {
        return clock.now();
    }

    public Broker advance(long millis) {
        clock.advance(millis);
        return this;
    }

    public Broker advanceSeconds(long seconds) {
        clock.advanceSeconds(seconds);
        return this;
    }

    public Result apply(Command command) {
        return state.apply(command, clock.now());
    }

    /** Applies and checks the result's type. */
    public <R extends Result> R apply(Command command, Class<R> type) {
        Result result = apply(command);
        if (!type.isInstance(result)) {
            throw new AssertionError("expected " + type.getSimpleName() + " but got " + result);
        }
        return type.cast(result);
    }

    public String nextId(String prefix) {
        return Ids.timeOrdered(clock.now(), prefix + "-" + (++sequence));
    }

    /** Writes the state to bytes and continues on the copy read back, like a restart from a snapshot. */
    public Broker reload() {
        state = Snapshots.reload(state);
        return this;
    }

    // ------------------------------------------------------------------ queues

    public Result.Configured configure(String queue) {
        return configure(queue, QueueOptions.defaults());
    }

    public Result.Configured configure(String queue, Options options) {
        return configure(queue, options.build());
    }

    public Result.Configured configure(String queue, QueueOptions options) {
        return apply(new Command.Configure(queue, null, null, options), Result.Configured.class);
    }

    public Result.Ticked tick() {
        return apply(new Command.Tick(), Result.Ticked.class);
    }

    // ------------------------------------------------------------------ push

    public static Item item(String queue) {
        return new Item(queue);
    }

    /** Pushes one message per payload to the queue's default partition (or its stripes). */
    public Result.Pushed push(String queue, String... payloads) {
        Item[] items = new Item[payloads.length];
        for (int i = 0; i < payloads.length; i++) {
            items[i] = item(queue).payload(payloads[i]);
        }
        return push(items);
    }

    public Result.Pushed push(Item... items) {
        return apply(new Command.Push(pushItems(items)), Result.Pushed.class);
    }

    public List<Command.PushItem> pushItems(Item... items) {
        List<Command.PushItem> list = new ArrayList<>();
        for (Item item : items) {
            list.add(item.build(this));
        }
        return list;
    }

    /** One message to push; unset ids are filled in when it is pushed. */
    public static final class Item {
        private final String queue;
        private String partition;
        private String transactionId;
        private String messageId;
        private String payload = "{}";
        private String traceId;
        private String producerSub;
        private long delayMs;
        private long availableAt;

        private Item(String queue) {
            this.queue = queue;
        }

        public Item partition(String value) {
            partition = value;
            return this;
        }

        public Item tx(String value) {
            transactionId = value;
            return this;
        }

        public Item messageId(String value) {
            messageId = value;
            return this;
        }

        public Item payload(String value) {
            payload = value;
            return this;
        }

        public Item traceId(String value) {
            traceId = value;
            return this;
        }

        public Item producerSub(String value) {
            producerSub = value;
            return this;
        }

        public Item delayMs(long value) {
            delayMs = value;
            return this;
        }

        public Item availableAt(long value) {
            availableAt = value;
            return this;
        }

        public Command.PushItem build(Broker broker) {
            String id = messageId != null ? messageId : broker.nextId("msg");
            String tx = transactionId != null ? transactionId : "tx-" + id;
            return new Command.PushItem(queue, partition, id, tx, Utf8Text.of(payload), traceId, producerSub, delayMs,
                    availableAt);
        }
    }

    // ------------------------------------------------------------------ pop

    public static Pop from(String queue) {
        return new Pop(queue);
    }

    public Result.Popped pop(String queue) {
        return pop(from(queue));
    }

    public Result.Popped pop(String queue, int batch) {
        return pop(from(queue).batch(batch));
    }

    public Result.Popped pop(Pop pop) {
        return apply(pop.build(nextId("lease")), Result.Popped.class);
    }

    /** A pop request: batch 1, queue mode, wildcard, unless told otherwise. */
    public static final class Pop {
        private final String queue;
        private String partition;
        private String group;
        private int batch = 1;
        private boolean autoAck;
        private SubscriptionMode mode;
        private long subscriptionFrom;
        private int partitions = 1;

        private Pop(String queue) {
            this.queue = queue;
        }

        public Pop partition(String value) {
            partition = value;
            return this;
        }

        public Pop group(String value) {
            group = value;
            return this;
        }

        public Pop batch(int value) {
            batch = value;
            return this;
        }

        public Pop autoAck() {
            autoAck = true;
            return this;
        }

        public Pop subscriptionNew() {
            mode = SubscriptionMode.NEW;
            return this;
        }

        public Pop subscriptionFrom(long time) {
            mode = SubscriptionMode.FROM;
            subscriptionFrom = time;
            return this;
        }

        public Pop partitions(int value) {
            partitions = value;
            return this;
        }

        public Command.Pop build(String leaseId) {
            return new Command.Pop(queue, partition, group, batch, leaseId, autoAck, mode, subscriptionFrom,
                    partitions);
        }
    }

    /** The payloads of a pop, in delivery order. */
    public static List<String> data(Result.Popped popped) {
        return popped.messages().stream().map(Result.Delivery::data).toList();
    }

    // ------------------------------------------------------------------ ack

    public static Ack ackOf(Result.Delivery delivery) {
        return new Ack(delivery);
    }

    public Result.AckOutcome ack(Result.Delivery delivery) {
        return ack(ackOf(delivery));
    }

    public Result.AckOutcome ack(Result.Delivery delivery, AckStatus status) {
        return ack(ackOf(delivery).status(status));
    }

    public Result.AckOutcome ack(Ack ack) {
        return ack(new Ack[] {ack}).get(0);
    }

    public List<Result.AckOutcome> ack(Ack... acks) {
        List<Command.AckItem> items = new ArrayList<>();
        for (Ack ack : acks) {
            items.add(ack.build());
        }
        return apply(new Command.Ack(items), Result.Acked.class).outcomes();
    }

    /** Acks every delivery of a pop with one status, in one call. */
    public List<Result.AckOutcome> ackAll(Result.Popped popped, AckStatus status) {
        Ack[] acks = popped.messages().stream().map(d -> ackOf(d).status(status)).toArray(Ack[]::new);
        return ack(acks);
    }

    /** An acknowledgement of a delivery: completed, with the delivery's lease and group, unless told otherwise. */
    public static final class Ack {
        private String transactionId;
        private String partitionId;
        private AckStatus status = AckStatus.COMPLETED;
        private String error;
        private String group;
        private String leaseId;
        private long delayMs;

        private Ack(Result.Delivery delivery) {
            transactionId = delivery.transactionId();
            partitionId = delivery.partitionId();
            group = delivery.group();
            leaseId = delivery.leaseId();
        }

        public Ack status(AckStatus value) {
            status = value;
            return this;
        }

        public Ack error(String value) {
            error = value;
            return this;
        }

        public Ack delayMs(long value) {
            delayMs = value;
            return this;
        }

        public Ack lease(String value) {
            leaseId = value;
            return this;
        }

        public Ack withoutLease() {
            leaseId = null;
            return this;
        }

        public Ack transactionId(String value) {
            transactionId = value;
            return this;
        }

        public Ack partitionId(String value) {
            partitionId = value;
            return this;
        }

        public Command.AckItem build() {
            return new Command.AckItem(transactionId, partitionId, status, error, group, leaseId, delayMs);
        }
    }
}
