package io.regina.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.regina.queue.BrokerState;
import io.regina.queue.Command;
import io.regina.queue.QueueOptions;
import io.regina.queue.Result;
import io.regina.queue.Utf8Text;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link RaftCommandBus} over the REAL {@link BrokerState}. Skipped (assumption) while
 * {@code BrokerState} is the skeleton whose apply throws "not yet"; it runs by itself once the
 * real one lands.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RaftCommandBusTest {

    @TempDir
    Path dir;

    static boolean realBrokerState() {
        try {
            new BrokerState().apply(new Command.Tick(), 0);
            return true;
        } catch (IllegalStateException e) {
            return !"not yet".equals(e.getMessage());
        } catch (RuntimeException e) {
            return true;
        }
    }

    static byte[] image(BrokerState state) {
        ByteSink sink = new ByteSink();
        state.writeTo(sink);
        return sink.toByteArray();
    }

    static Command push(String id) {
        return new Command.Push(List.of(new Command.PushItem("orders", null, "00000000-0000-7000-8000-"
                + String.format("%012d", Integer.parseInt(id)), "tx-" + id, Utf8Text.of("{\"n\":" + id + "}"), null, null, 0,
                0)));
    }

    @Test
    void concurrentPushesThroughTheBusAreAnsweredInOrderAndSurviveARestart() throws Exception {
        assumeTrue(realBrokerState(), "needs the real BrokerState (the skeleton's apply throws 'not yet')");
        RaftNodeSettings settings = RaftNodeSettings.singleNode(dir, FakeState.freePort())
                .withTickIntervalMs(0).withSnapshotThreshold(50).withStartTimeout(Duration.ofSeconds(30));
        byte[] before;
        RaftMetrics metrics = new RaftMetrics();
        BrokerStateMachine<BrokerState> machine = BrokerStateMachine.forBrokerState(metrics,
                RaftNode.maxRequestBytes(settings.limits()));
        try (RaftNode node = new RaftNode(settings, machine, metrics)) {
            node.start();
            RaftCommandBus bus = new RaftCommandBus(node, machine);
            assertThat(bus.submit(new Command.Configure("orders", null, null, QueueOptions.defaults()))
                    .get(30, TimeUnit.SECONDS)).isInstanceOf(Result.Configured.class);
            List<CompletableFuture<Result>> futures = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                futures.add(bus.submit(push(Integer.toString(i))));
            }
            for (int i = 0; i < 200; i++) {
                Result r = futures.get(i).get(30, TimeUnit.SECONDS);
                assertThat(r).isInstanceOf(Result.Pushed.class);
                Result.PushOutcome outcome = ((Result.Pushed) r).outcomes().get(0);
                assertThat(outcome.transactionId()).isEqualTo("tx-" + i);
                assertThat(outcome.status()).isEqualTo(Result.PushStatus.QUEUED);
            }
            assertThat(metrics.maxCommandsPerEntry()).isGreaterThan(1);
            before = machine.read(RaftCommandBusTest::image);
        }
        RaftMetrics metrics2 = new RaftMetrics();
        BrokerStateMachine<BrokerState> machine2 = BrokerStateMachine.forBrokerState(metrics2,
                RaftNode.maxRequestBytes(settings.limits()));
        try (RaftNode node = new RaftNode(settings, machine2, metrics2)) {
            node.start();
            RaftCommandBus bus = new RaftCommandBus(node, machine2);
            assertThat(machine2.read(RaftCommandBusTest::image)).isEqualTo(before);
            Result again = bus.submit(push("7")).get(30, TimeUnit.SECONDS);
            assertThat(((Result.Pushed) again).outcomes().get(0).status()).isEqualTo(Result.PushStatus.DUPLICATE);
        }
    }
}
