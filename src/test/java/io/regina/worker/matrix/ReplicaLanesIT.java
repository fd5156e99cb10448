package io.regina.worker.matrix;

import io.regina.client.ReginaClient;
import io.regina.testing.BrokerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.regina.worker.matrix.MatrixLog.payload;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replica lanes of the failure matrix: two {@code queue:work} supervisors (2 workers each) on one queue
 * of 4 partitions, one broker for the class, otherwise as {@link FailureMatrixIT}. One supervisor is
 * SIGKILLed, or both are restarted one after the other, while jobs run; every job completes once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicaLanesIT {
    private static BrokerProcess broker;
    private static ReginaClient regina;

    @BeforeAll
    static void broker() throws IOException {
        broker = MatrixRun.broker("broker-replicas");
        regina = ReginaClient.builder().urls(broker.baseUrl()).build();
    }

    @AfterAll
    static void report() throws Exception {
        MatrixRun.write();
        if (broker != null) {
            broker.stop();
        }
    }

    private static void lane(String name, String expected, Profile profile, Lane.Body body)
            throws Exception {
        MatrixRun.run(name, expected, profile, () -> {
            try (Lane lane = Lane.open(regina, broker.baseUrl(), MatrixRun.dir(), name.split(" ")[0], profile, 4)) {
                body.run(lane);
            }
        });
    }

    @Order(1)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void r1SigkillOnOneOfTwoSupervisors(Profile profile) throws Exception {
        lane("R1 two supervisors on one queue, SIGKILL one", "all 40 jobs complete once", profile, lane -> {
            SupervisorProcess victim = lane.supervise();
            lane.supervise();
            List<String> ids = Lane.ids(40);
            lane.dispatch(ids.stream().map(id -> payload(id, "sleep", 1_000, 0)).toArray(Map[]::new));
            lane.await(Duration.ofSeconds(60), "jobs running under both supervisors",
                    () -> runningUnder(lane, victim) && lane.log.events().stream().map(MatrixLog.Event::pid)
                            .distinct().count() >= 3);
            Set<Long> orphans = workerPids(victim);
            victim.killHard();
            lane.await(Duration.ofSeconds(60), "the killed supervisor's workers gone",
                    () -> orphans.stream().noneMatch(pid -> ProcessHandle.of(pid).isPresent()));
            lane.awaitAllDone(Duration.ofSeconds(120), ids);
            lane.finish();
            lane.assertCompletedOnce(ids);
            for (String id : ids) {
                assertThat(lane.log.attempts(id)).as(id + ": one attempt").extracting(MatrixLog.Attempt::attempt)
                        .containsExactly(1);
            }
        });
    }

    @Order(2)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void r2RollingRestartOfBothSupervisors(Profile profile) throws Exception {
        lane("R2 a rolling restart (SIGTERM, start) of both supervisors", "all 60 jobs complete once", profile,
                lane -> {
                    SupervisorProcess first = lane.supervise();
                    SupervisorProcess second = lane.supervise();
                    List<String> ids = Lane.ids(60);
                    lane.dispatch(ids.stream().map(id -> payload(id, "sleep", 1_000, 0)).toArray(Map[]::new));
                    for (SupervisorProcess old : List.of(first, second)) {
                        lane.await(Duration.ofSeconds(60), "a job running under the supervisor to restart",
                                () -> runningUnder(lane, old));
                        lane.deploy(old);
                        SupervisorProcess next = lane.supervise();
                        lane.await(Duration.ofSeconds(60), "its successor's workers running jobs",
                                () -> runningUnder(lane, next));
                    }
                    lane.awaitAllDone(Duration.ofSeconds(120), ids);
                    lane.finish();
                    lane.assertCompletedOnce(ids);
                    for (String id : ids) {
                        assertThat(lane.log.attempts(id)).as(id + ": one attempt")
                                .extracting(MatrixLog.Attempt::attempt).containsExactly(1);
                    }
                });
    }

    /** A worker of {@code supervisor} has started a job. */
    private static boolean runningUnder(Lane lane, SupervisorProcess supervisor) throws IOException {
        Set<Long> pids = workerPids(supervisor);
        return lane.log.events().stream().anyMatch(e -> e.event().equals("started") && pids.contains(e.pid()));
    }

    private static Set<Long> workerPids(SupervisorProcess supervisor) throws IOException {
        return supervisor.workerEvents().stream().filter(e -> e.what().equals("started"))
                .map(SupervisorProcess.WorkerEvent::pid).collect(Collectors.toSet());
    }
}
