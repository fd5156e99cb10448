package io.regina.api;

import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
import io.regina.queue.SubscriptionMode;
import io.regina.queue.Utf8Text;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/** Which parked pops a push serves in its own entry, and how each is answered. */
class PopWaitersTest {

    /** Records what is submitted and answers each command when the test says so. */
    private static final class RecordingBus implements CommandBus {
        final List<List<Command>> entries = new ArrayList<>();
        final List<CompletableFuture<Result>> answers = new ArrayList<>();

        @Override
        public CompletableFuture<Result> submit(Command command) {
            return submitTogether(List.of(command)).get(0);
        }

        @Override
        public List<CompletableFuture<Result>> submitTogether(List<Command> commands) {
            entries.add(List.copyOf(commands));
            List<CompletableFuture<Result>> futures = new ArrayList<>();
            for (int i = 0; i < commands.size(); i++) {
                futures.add(new CompletableFuture<>());
            }
            answers.addAll(futures);
            return futures;
        }

        /** Only a wake-up after an applied entry reads, and this bus applies nothing: a read is a test bug. */
        @Override
        public <T> T read(Function<BrokerView, T> query) {
            throw new AssertionError("a push serving parked pops must not read the state");
        }

        @Override
        public void onDeliverable(Consumer<String> listener) {
        }
    }

    private final RecordingBus bus = new RecordingBus();
    private final PopWaiters waiters = new PopWaiters(bus);

    private static Command.Push push(String queue, String partition, long delayMs) {
        return new Command.Push(List.of(new Command.PushItem(queue, partition, "m-" + System.nanoTime(), "tx",
                Utf8Text.of("{}"), null, null, delayMs, 0)));
    }

    private static Command.Pop pop(String queue, String group) {
        return new Command.Pop(queue, null, group, 1, UuidV7.next(), false, SubscriptionMode.ALL, 0, 1);
    }

    /** A long-poll that looked, found nothing and waits: a push may serve it. */
    private PopWaiters.Waiter parked(String queue, String group, String partition) {
        PopWaiters.Waiter waiter = waiters.arm(queue, group, partition);
        waiter.servable(() -> pop(queue, group));
        return waiter;
    }

    @Test
    void aPushCarriesOnePopPerMessageForTheOldestWaiterInTheSameEntry() throws Exception {
        PopWaiters.Waiter first = parked("q", "__QUEUE_MODE__", null);
        PopWaiters.Waiter second = parked("q", "__QUEUE_MODE__", null);

        CompletableFuture<Result> pushed = waiters.submitServing(push("q", null, 0));

        assertThat(bus.entries).hasSize(1);
        assertThat(bus.entries.get(0)).hasSize(2);
        assertThat(bus.entries.get(0).get(0)).isInstanceOf(Command.Push.class);
        assertThat(bus.entries.get(0).get(1)).isInstanceOf(Command.Pop.class);
        assertThat(waiters.parked()).as("the second waiter still waits").isEqualTo(1);

        Result.Popped popped = new Result.Popped("q", "Default", "p", "lease", "__QUEUE_MODE__", List.of(), 1);
        bus.answers.get(1).complete(popped);
        assertThat(first.wake().get(5, TimeUnit.SECONDS)).as("the pop's answer is the waiter's").isSameAs(popped);
        assertThat(second.wake()).isNotDone();
        assertThat(pushed).as("the push is answered on its own").isNotDone();
        assertThat(second.take()).as("the second one can still leave").isTrue();
    }

    @Test
    void eachGroupReadsEveryMessageSoEachGetsItsOwnPop() {
        parked("q", "billing", null);
        parked("q", "audit", null);
        parked("q", "audit", null);

        waiters.submitServing(push("q", null, 0));

        assertThat(bus.entries.get(0)).hasSize(3);
        assertThat(waiters.parked()).isEqualTo(1);
    }

    @Test
    void nothingRidesWithADelayedMessageOrAnotherQueue() {
        parked("q", "__QUEUE_MODE__", null);

        waiters.submitServing(push("q", null, 5_000));
        waiters.submitServing(push("other", null, 0));

        assertThat(bus.entries).extracting(List::size).containsExactly(1, 1);
        assertThat(waiters.parked()).isEqualTo(1);
    }

    @Test
    void aPartitionsPopIsServedOnlyByAMessageOfThatPartition() {
        parked("q", "__QUEUE_MODE__", "p1");

        waiters.submitServing(push("q", "p2", 0));
        assertThat(bus.entries.get(0)).hasSize(1);

        waiters.submitServing(push("q", "p1", 0));
        assertThat(bus.entries.get(1)).hasSize(2);
        assertThat(waiters.parked()).isZero();
    }

    @Test
    void aWaiterIsNotServedBeforeItsOwnLookCameBackNorAfterItLeft() {
        waiters.arm("q", "__QUEUE_MODE__", null); // still looking: its own pop may be in flight
        PopWaiters.Waiter leaving = parked("q", "__QUEUE_MODE__", null);
        assertThat(leaving.take()).as("its deadline passed").isTrue();

        waiters.submitServing(push("q", null, 0));

        assertThat(bus.entries.get(0)).hasSize(1);
        assertThat(leaving.take()).as("taken once only").isFalse();
    }

    @Test
    void aServedPopThatFailsWakesItsWaiterToLookAgain() throws Exception {
        PopWaiters.Waiter waiter = parked("q", "__QUEUE_MODE__", null);
        waiters.submitServing(push("q", null, 0));

        bus.answers.get(1).completeExceptionally(new IllegalStateException("not committed in time"));

        assertThat(waiter.wake().get(5, TimeUnit.SECONDS)).as("a plain wake-up").isNull();
    }
}
