package io.regina.worker.matrix;

import io.regina.client.BrokerUnavailableException;
import io.regina.client.ReginaClient;
import io.regina.testing.BrokerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.regina.worker.matrix.MatrixLog.payload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Lanes 12 to 15 of the failure matrix: the broker itself restarted, frozen and stopped under a running
 * {@code queue:work}. Each lane gets a broker process of its own (it stops or freezes it), which its two
 * profiles share, each on a fresh queue; otherwise as {@link FailureMatrixIT}: a real supervisor with 2
 * workers, the {@link MatrixJob}, and the lane passes when the jobs ended as it says, no two attempts of one
 * job overlapped, the queue is empty and the supervisor exits 0 on SIGTERM ({@link Lane#finish()}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BrokerOutageIT {

    @FunctionalInterface
    interface Body {
        void run(Lane lane, BrokerProcess broker) throws Exception;
    }

    /** The lane whose broker runs now, and that broker: the two profiles of a lane share a fresh one. */
    private static String brokerLane;
    private static BrokerProcess broker;

    @AfterAll
    static void report() throws Exception {
        MatrixRun.write();
        if (broker != null) {
            broker.stop();
        }
    }

    /** Runs a lane on its broker, thawed and running again after it whatever the lane left it as. */
    private static void lane(String name, String expected, Profile profile, int stripes, Body body,
                             String... overrides) throws Exception {
        String number = name.split(" ")[0];
        MatrixRun.run(name, expected, profile, () -> {
            BrokerProcess own = brokerOf(number);
            ReginaClient regina = ReginaClient.builder().urls(own.baseUrl()).build();
            try (Lane lane = Lane.open(regina, own.baseUrl(), MatrixRun.dir(), number, profile, stripes,
                    overrides)) {
                try {
                    body.run(lane, own);
                } finally {
                    if (own.isAlive()) {
                        own.thaw();
                    } else {
                        own.start();
                    }
                }
            }
        });
    }

    private static BrokerProcess brokerOf(String lane) throws Exception {
        if (!lane.equals(brokerLane)) {
            if (broker != null) {
                broker.stop();
            }
            broker = MatrixRun.broker("broker-" + lane);
            brokerLane = lane;
        }
        return broker;
    }

    @Order(12)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane12BrokerRestarts(Profile profile) throws Exception {
        lane("12 the broker restarts (SIGTERM, start) while 300 jobs of 100 ms run", "all 300 complete once",
                profile, 2, (lane, broker) -> {
                    lane.supervise();
                    List<String> ids = Lane.ids(300);
                    lane.dispatch(ids.stream().map(id -> payload(id, "sleep", 100, 0)).toArray(Map[]::new));
                    lane.await(Duration.ofSeconds(60), "50 completed",
                            () -> lane.log.counts("completed").size() >= 50);
                    broker.stop();
                    assertThat(lane.log.counts("completed")).as("jobs left to run after the broker stopped")
                            .hasSizeLessThan(300);
                    broker.start();
                    lane.awaitAllDone(Duration.ofSeconds(120), ids);
                    lane.finish();
                    lane.assertCompletedOnce(ids);
                });
    }

    @Order(13)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane13BrokerFrozenFiveSeconds(Profile profile) throws Exception {
        lane("13 the broker frozen (SIGSTOP) 5 s during 10 s jobs", "nothing runs twice", profile, 2,
                (lane, broker) -> {
                    lane.supervise();
                    List<String> ids = Lane.ids(2);
                    lane.dispatch(ids.stream().map(id -> payload(id, "sleep", 10_000, 0)).toArray(Map[]::new));
                    frozenAcrossTheFirstEnd(lane, broker, Duration.ofSeconds(10), Duration.ofSeconds(5));
                    lane.awaitAllDone(Duration.ofSeconds(90), ids);
                    lane.finish();
                    for (String id : ids) {
                        assertThat(lane.log.attempts(id)).as(id + ": one attempt")
                                .extracting(MatrixLog.Attempt::attempt).containsExactly(1);
                    }
                    lane.assertCompletedOnce(ids);
                });
    }

    @Order(14)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane14BrokerFrozenLongerThanTheLease(Profile profile) throws Exception {
        lane("14 the broker frozen 45 s, longer than the lease (30 s)", "all complete (a job may run twice)",
                profile, 2, (lane, broker) -> {
                    lane.supervise();
                    List<String> ids = Lane.ids(4);
                    lane.dispatch(ids.stream().map(id -> payload(id, "sleep", 5_000, 0)).toArray(Map[]::new));
                    frozenAcrossTheFirstEnd(lane, broker, Duration.ofSeconds(5), Duration.ofSeconds(45));
                    lane.awaitAllDone(Duration.ofSeconds(120), ids);
                    lane.finish();
                    for (String id : ids) {
                        assertThat(lane.log.attempts(id)).as(id + ": at most twice").hasSizeBetween(1, 2);
                    }
                });
    }

    /**
     * Freezes the broker for {@code frozen} from 3 s before the first job's end: jobs end, and their acks,
     * lease renewals and the next pops are sent, while it is frozen.
     */
    private static void frozenAcrossTheFirstEnd(Lane lane, BrokerProcess broker, Duration jobs, Duration frozen)
            throws Exception {
        lane.await(Duration.ofSeconds(60), "two jobs running", () -> lane.log.counts("started").size() >= 2);
        sleepUntil(lane.log.events().get(0).at().plus(jobs).minusSeconds(3));
        broker.freeze();
        try {
            Thread.sleep(frozen.toMillis());
        } finally {
            broker.thaw();
        }
    }

    @Order(15)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane15DispatchWhileTheBrokerIsStopped(Profile profile) throws Exception {
        lane("15 dispatch while the broker is stopped", "throws after the client's retries (1 s, 2 s); works"
                + " again once it is back", profile, 2, (lane, broker) -> {
                    lane.supervise();
                    lane.dispatch(payload("before", "ok", 0, 0));
                    lane.await(Duration.ofSeconds(60), "before completed",
                            () -> lane.count("before", "completed") == 1);
                    broker.stop();
                    Instant tried = Instant.now();
                    assertThatThrownBy(() -> lane.dispatch(payload("during", "ok", 0, 0)))
                            .isInstanceOf(BrokerUnavailableException.class);
                    assertThat(Duration.between(tried, Instant.now())).as("three rounds, 1 s and 2 s apart")
                            .isBetween(Duration.ofMillis(2_900), Duration.ofSeconds(20));
                    broker.start();
                    lane.dispatch(payload("after", "ok", 0, 0));
                    lane.await(Duration.ofSeconds(60), "after completed", () -> lane.count("after", "completed") == 1);
                    assertThat(lane.supervisorLines(" exited ")).as("workers that died in the outage").isZero();
                    lane.finish();
                    assertThat(lane.log.attempts("during")).isEmpty();
                    lane.assertCompletedOnce(List.of("before", "after"));
                });
    }

    private static void sleepUntil(Instant at) throws InterruptedException {
        long ms = Duration.between(Instant.now(), at).toMillis();
        if (ms > 0) {
            Thread.sleep(ms);
        }
    }
}
