package io.regina.raft;

import io.regina.queue.Command;
import io.regina.queue.FailedJobs;
import io.regina.queue.Result;
import io.regina.queue.StateReader;
import io.regina.queue.StateWriter;
import io.regina.queue.Utf8Text;
import io.regina.testing.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The work a state leaves for after its applies (the failed-jobs index) through a real single-node
 * state machine: done in the background, bounded by the apply thread, and done before a read that needs it.
 */
@Timeout(120)
class BackgroundCatchUpTest {

    private static final Duration AWAIT = Duration.ofSeconds(30);
    /** Steps of left-over work each pushed item leaves. */
    private static final int STEPS_PER_ITEM = 1_000;

    @TempDir
    Path dir;

    /** {@link FakeState} that leaves work for each pushed item, and the largest slice any one call did. */
    static final class Lagging {
        final FakeState fake;
        final AtomicInteger left = new AtomicInteger();
        final AtomicInteger largestCall = new AtomicInteger();

        Lagging(FakeState fake) {
            this.fake = fake;
        }
    }

    static final StateAdapter<Lagging> ADAPTER = new StateAdapter<>() {
        @Override
        public Lagging empty() {
            return new Lagging(FakeState.ADAPTER.empty());
        }

        @Override
        public Result apply(Lagging state, Command command, long now) {
            if (command instanceof Command.Push push) {
                state.left.addAndGet(push.items().size() * STEPS_PER_ITEM);
            }
            return FakeState.ADAPTER.apply(state.fake, command, now);
        }

        @Override
        public List<String> drainDeliverable(Lagging state) {
            return FakeState.ADAPTER.drainDeliverable(state.fake);
        }

        @Override
        public void writeTo(Lagging state, StateWriter out) {
            FakeState.ADAPTER.writeTo(state.fake, out);
        }

        @Override
        public Lagging readFrom(StateReader in) {
            return new Lagging(FakeState.ADAPTER.readFrom(in));
        }

        @Override
        public int behind(Lagging state) {
            return state.left.get();
        }

        @Override
        public boolean catchUp(Lagging state, int max) {
            int done = Math.min(max, state.left.get());
            state.largestCall.accumulateAndGet(done, Math::max);
            return state.left.addAndGet(-done) > 0;
        }
    };

    /** A query that, like a text search of a lagging index, refuses to answer while work is left. */
    private static int needingItDone(Lagging state) {
        if (state.left.get() > 0) {
            throw new FailedJobs.IndexBehind(state.left.get());
        }
        return state.left.get();
    }

    private RaftNode node(BrokerStateMachine<Lagging> machine, RaftMetrics metrics) {
        return new RaftNode(RaftNodeSettings.singleNode(dir, FakeState.freePort())
                .withTickIntervalMs(60_000)
                .withStartTimeout(Duration.ofSeconds(30)), machine, metrics);
    }

    private static Command push(int items) {
        List<Command.PushItem> pushed = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            pushed.add(new Command.PushItem("q", null, "m" + i, "tx-" + i, Utf8Text.of("{}"), null, null, 0, 0));
        }
        return new Command.Push(pushed);
    }

    @Test
    void theLeftOverWorkIsDoneInTheBackgroundInSlicesWithoutAnyRead() throws Exception {
        RaftMetrics metrics = new RaftMetrics();
        BrokerStateMachine<Lagging> machine = new BrokerStateMachine<>(ADAPTER, metrics, 1 << 20);
        try (RaftNode node = node(machine, metrics)) {
            node.start();
            Lagging state = machine.read(s -> s);

            node.submit(push(10)).get(30, TimeUnit.SECONDS);

            Eventually.await(AWAIT, "the background catch-up", () -> state.left.get(), left -> left == 0);
            assertThat(state.largestCall.get()).isEqualTo(BrokerStateMachine.CATCH_UP_SLICE);
        }
    }

    @Test
    void theApplyThreadDoesTheWorkPastTheBoundAndAReadThatNeedsItFindsItAllDone() throws Exception {
        RaftMetrics metrics = new RaftMetrics();
        BrokerStateMachine<Lagging> machine = new BrokerStateMachine<>(ADAPTER, metrics, 1 << 20);
        try (RaftNode node = node(machine, metrics)) {
            node.start();
            Lagging state = machine.read(s -> s);
            int items = 2 * BrokerStateMachine.MAX_BEHIND / STEPS_PER_ITEM;

            node.submit(push(items)).get(30, TimeUnit.SECONDS);

            assertThat(state.left.get()).as("left once the push is answered").isLessThanOrEqualTo(
                    BrokerStateMachine.MAX_BEHIND);
            assertThat(state.largestCall.get()).as("the excess, done by the apply thread")
                    .isGreaterThanOrEqualTo(items * STEPS_PER_ITEM - BrokerStateMachine.MAX_BEHIND);
            node.submit(push(10)).get(30, TimeUnit.SECONDS);
            assertThat(machine.read(BackgroundCatchUpTest::needingItDone)).as("what a read that needs it sees")
                    .isZero();
        }
    }
}
