package io.regina.worker.matrix;

import io.regina.client.FailedJob;
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
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static io.regina.worker.matrix.MatrixLog.payload;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure matrix of {@code queue:work} (issue 11), lanes 1 to 11: real processes, killed for real. One
 * broker process (the jar) for the class, a fresh queue and a fresh {@code java -jar regina.jar queue:work}
 * per lane and profile, the {@link MatrixJob} in the worker JVMs. A lane passes when every job ended as its
 * kind says (from the jobs' own log and the failed-jobs table), no two attempts of one job overlapped, and the
 * supervisor stopped with exit 0 on SIGTERM ({@link Lane#finish()}). {@code mvn verify -Pworkers} runs it
 * with the broker's lanes ({@link BrokerOutageIT}) and the replica lanes ({@link ReplicaLanesIT}); the table
 * of results ({@link MatrixRun}) is printed at the end and written to
 * {@code target/failure-matrix/table.txt}, beside each lane's logs.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FailureMatrixIT {
    /** Kept after the run: each lane's supervisor output and its jobs' log, and the broker's log. */
    private static Path dir;
    private static BrokerProcess broker;
    private static ReginaClient regina;

    @BeforeAll
    static void broker() throws IOException {
        dir = MatrixRun.dir();
        broker = MatrixRun.broker("broker");
        regina = ReginaClient.builder().urls(broker.baseUrl()).build();
    }

    @AfterAll
    static void report() throws Exception {
        MatrixRun.write();
        if (broker != null) {
            broker.stop();
        }
    }

    /** Runs a lane on a fresh queue of the class's broker, recording PASS or the failure for the table. */
    private static void lane(String name, String expected, Profile profile, int stripes, Lane.Body body,
                             String... overrides) throws Exception {
        MatrixRun.run(name, expected, profile, () -> {
            try (Lane lane = Lane.open(regina, broker.baseUrl(), dir, name.split(" ")[0], profile, stripes,
                    overrides)) {
                body.run(lane);
            }
        });
    }

    @Order(1)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane1ThrowsOnEveryAttempt(Profile profile) throws Exception {
        lane("1 throws on every attempt", "3 attempts >= 2 s apart, one failed-job row", profile, 2, lane -> {
            lane.supervise();
            lane.dispatch(payload("a", "throw", 0, 0));
            lane.await(Duration.ofSeconds(60), "a failed-job row", () -> lane.failed().size() == 1);
            List<MatrixLog.Attempt> attempts = lane.log.attempts("a");
            assertThat(attempts).extracting(MatrixLog.Attempt::attempt).containsExactly(1, 2, 3);
            for (int i = 1; i < attempts.size(); i++) {
                Instant ended = attempts.get(i - 1).end().orElseThrow().at();
                assertThat(Duration.between(ended, attempts.get(i).started()))
                        .as("backoff before attempt " + (i + 1)).isGreaterThanOrEqualTo(Duration.ofMillis(1_950));
            }
            assertThat(lane.log.count("a", "completed")).isZero();
            lane.finish();
        }, "--backoff", "2");
    }

    @Order(2)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane2ThrowsOnTheFirstAttemptOnly(Profile profile) throws Exception {
        lane("2 throws on its first attempt only", "completes on the second attempt, once", profile, 2, lane -> {
            lane.supervise();
            lane.dispatch(payload("a", "throw-once", 0, 0));
            lane.await(Duration.ofSeconds(60), "a completed", () -> lane.log.count("a", "completed") == 1);
            assertThat(lane.log.attempts("a")).extracting(MatrixLog.Attempt::attempt).containsExactly(1, 2);
            lane.finish();
            assertThat(lane.log.count("a", "completed")).isOne();
            assertThat(lane.failed()).isEmpty();
        });
    }

    @Order(3)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane3ReleaseOnceAndFail(Profile profile) throws Exception {
        lane("3 release() once / fail()", "released completes on attempt 2; fail() is final", profile, 2, lane -> {
            lane.supervise();
            lane.dispatch(payload("released", "release-once", 0, 0), payload("failing", "fail", 0, 0));
            lane.await(Duration.ofSeconds(60), "released completed, failing failed",
                    () -> lane.log.count("released", "completed") == 1 && lane.failed().size() == 1);
            assertThat(lane.log.attempts("released")).extracting(MatrixLog.Attempt::attempt).containsExactly(1, 2);
            assertThat(lane.log.attempts("failing")).hasSize(1);
            assertThat(lane.failed().get(0).error()).contains("the job failed itself");
            lane.finish();
            assertThat(lane.log.count("released", "completed")).isOne();
            assertThat(lane.log.attempts("failing")).hasSize(1);
        });
    }

    @Order(4)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane4TimeoutKillsTheWorker(Profile profile) throws Exception {
        lane("4 a 15 s job, timeout 3, tries 2", "killed and replaced at each attempt, one failed-job row, no crash"
                + " circuit", profile, 2, lane -> {
                    lane.supervise();
                    Instant dispatched = Instant.now();
                    lane.dispatch(payload("a", "sleep", 15_000, 0));
                    lane.await(Duration.ofSeconds(60), "a failed-job row", () -> lane.failed().size() == 1);
                    Duration took = Duration.between(dispatched, Instant.now());
                    List<MatrixLog.Attempt> attempts = lane.log.attempts("a");
                    assertThat(attempts).extracting(MatrixLog.Attempt::attempt).containsExactly(1, 2);
                    assertThat(attempts).allSatisfy(a -> assertThat(a.end()).as("attempt " + a.attempt()).isEmpty());
                    assertThat(lane.supervisorLines("ran past its timeout")).isEqualTo(2);
                    assertThat(lane.supervisorLines("crash circuit")).isZero();
                    assertThat(took).as("two 3 s attempts and their restarts").isLessThan(Duration.ofSeconds(30));
                    lane.finish();
                }, "--timeout", "3", "--tries", "2");
    }

    @Order(5)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane5MemoryRecyclesTheWorker(Profile profile) throws Exception {
        lane("5 a job takes its worker over --memory", "completes once, then the worker is replaced", profile, 2,
                lane -> {
                    lane.supervise();
                    lane.dispatch(payload("big", "memory", 500, 200), payload("b", "ok", 0, 0),
                            payload("c", "ok", 0, 0));
                    lane.await(Duration.ofSeconds(60), "all completed and the big one's worker recycled",
                            () -> lane.log.count("big", "completed") == 1 && lane.log.count("b", "completed") == 1
                                    && lane.log.count("c", "completed") == 1 && replacedAfterRecycle(lane));
                    long pid = lane.log.attempts("big").get(0).pid();
                    assertThat(lane.supervisorLines("pid " + pid + " recycled")).isOne();
                    lane.finish();
                    for (String id : List.of("big", "b", "c")) {
                        assertThat(lane.log.attempts(id)).as(id).extracting(MatrixLog.Attempt::attempt)
                                .containsExactly(1);
                    }
                }, "--memory", "160", "--worker-java-opts", "-Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    }

    /** The worker that ran the big job exited as recycled, and its slot got a new worker after that. */
    private static boolean replacedAfterRecycle(Lane lane) throws IOException {
        List<MatrixLog.Attempt> big = lane.log.attempts("big");
        if (big.isEmpty()) {
            return false;
        }
        long pid = big.get(0).pid();
        List<SupervisorProcess.WorkerEvent> events = lane.workerEvents();
        for (SupervisorProcess.WorkerEvent exit : events) {
            if (exit.pid() == pid && exit.what().contains("(memory)")) {
                return events.stream().anyMatch(e -> e.slot() == exit.slot() && e.what().equals("started")
                        && e.at().isAfter(exit.at()));
            }
        }
        return false;
    }

    @Order(6)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane6OutOfHeapKillsTheWorker(Profile profile) throws Exception {
        lane("6 a job exceeds the worker's heap, tries 2", "dies at each attempt, one failed-job row, its batch's"
                + " unstarted jobs handed back uncharged", profile, 1, lane -> {
                    lane.supervise();
                    Instant dispatched = Instant.now();
                    lane.dispatch(payload("oom", "memory", 0, 512), payload("b", "ok", 0, 0), payload("c", "ok", 0, 0),
                            payload("d", "ok", 0, 0));
                    lane.await(Duration.ofSeconds(90), "a failed-job row and the rest completed",
                            () -> lane.failed().size() == 1 && lane.log.count("b", "completed") == 1
                                    && lane.log.count("c", "completed") == 1 && lane.log.count("d", "completed") == 1);
                    assertThat(Duration.between(dispatched, Instant.now()))
                            .as("no wait for a dead worker's lease (30 s)").isLessThan(Duration.ofSeconds(30));
                    List<MatrixLog.Attempt> attempts = lane.log.attempts("oom");
                    assertThat(attempts).extracting(MatrixLog.Attempt::attempt).containsExactly(1, 2);
                    for (MatrixLog.Attempt attempt : attempts) {
                        assertThat(attempt.end()).isEmpty();
                        assertThat(lane.supervisorLines("pid " + attempt.pid() + " exited 3")).isOne();
                    }
                    assertThat(lane.failed()).extracting(FailedJob::transactionId).hasSize(1);
                    if (profile == Profile.ASYNC) {
                        assertThat(lane.supervisorLines("released, 3 unstarted handed back")).isOne();
                    }
                    lane.finish();
                    for (String id : List.of("b", "c", "d")) {
                        assertThat(lane.log.attempts(id)).as(id + ": once, as its first attempt")
                                .extracting(MatrixLog.Attempt::attempt).containsExactly(1);
                    }
                }, "--tries", "2", "--worker-java-opts", "-Xmx64m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
    }

    @Order(7)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane7SigkillOnAWorker(Profile profile) throws Exception {
        lane("7 SIGKILL on a worker during a 4 s job", "the killed job runs again, all 8 complete once, its"
                + " unstarted jobs run within seconds as their first attempt", profile, 2, lane -> {
                    lane.supervise();
                    List<String> ids = Lane.ids(8);
                    lane.dispatch(ids.stream().map(id -> payload(id, "sleep", 4_000, 0)).toArray(Map[]::new));
                    lane.await(Duration.ofSeconds(60), "a job started", () -> !lane.log.events().isEmpty());
                    MatrixLog.Event first = lane.log.events().get(0);
                    Thread.sleep(1_000);
                    ProcessHandle.of(first.pid()).orElseThrow().destroyForcibly();
                    Instant killed = Instant.now();
                    lane.await(Duration.ofSeconds(90), "all 8 completed", () -> lane.allCompleted(ids));
                    assertThat(Duration.between(killed, Instant.now())).as("no wait for the killed worker's lease")
                            .isLessThan(Duration.ofSeconds(30));
                    String victim = first.jobId();
                    assertThat(lane.log.attempts(victim)).extracting(MatrixLog.Attempt::attempt).containsExactly(1, 2);
                    lane.finish();
                    for (String id : ids) {
                        assertThat(lane.log.count(id, "completed")).as(id).isOne();
                        if (!id.equals(victim)) {
                            assertThat(lane.log.attempts(id)).as(id + ": its first attempt")
                                    .extracting(MatrixLog.Attempt::attempt).containsExactly(1);
                        }
                    }
                });
    }

    @Order(8)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane8SigkillOnTheSupervisor(Profile profile) throws Exception {
        lane("8 SIGKILL on the supervisor during 4 s jobs, a restart", "all 8 complete once", profile, 2, lane -> {
            lane.supervise();
            List<String> ids = Lane.ids(8);
            lane.dispatch(ids.stream().map(id -> payload(id, "sleep", 4_000, 0)).toArray(Map[]::new));
            lane.await(Duration.ofSeconds(60), "two jobs running", () -> lane.log.events().size() >= 2);
            Thread.sleep(1_000);
            lane.killSupervisor();
            lane.supervise();
            lane.await(Duration.ofSeconds(90), "all 8 completed", () -> lane.allCompleted(ids));
            lane.finish();
            for (String id : ids) {
                assertThat(lane.log.count(id, "completed")).as(id).isOne();
                assertThat(lane.log.attempts(id)).as(id + ": one attempt").extracting(MatrixLog.Attempt::attempt)
                        .containsExactly(1);
            }
        });
    }

    @Order(9)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane9DeployDuringTenSecondJobs(Profile profile) throws Exception {
        lane("9 a deploy (SIGTERM) during 10 s jobs", "they finish within the grace and do not run again", profile,
                2, lane -> {
                    lane.supervise();
                    List<String> ids = List.of("a", "b", "c", "d");
                    lane.dispatch(ids.stream().map(id -> payload(id, "sleep", 10_000, 0)).toArray(Map[]::new));
                    lane.await(Duration.ofSeconds(60), "two jobs running", () -> lane.log.events().size() >= 2);
                    Thread.sleep(1_000);
                    List<String> running = lane.log.events().stream().map(MatrixLog.Event::jobId).distinct().toList();
                    Instant deployed = lane.deploy();
                    for (String id : running) {
                        MatrixLog.Event done = lane.log.events().stream()
                                .filter(e -> e.jobId().equals(id) && e.event().equals("completed")).findFirst()
                                .orElseThrow(() -> new AssertionError(id + " did not complete in the deploy"));
                        assertThat(Duration.between(deployed, done.at())).isLessThan(Duration.ofSeconds(35));
                    }
                    assertThat(lane.log.events()).as("nothing starts in a deploy")
                            .allMatch(e -> running.contains(e.jobId()));
                    lane.supervise();
                    lane.await(Duration.ofSeconds(60), "the rest completed after the deploy",
                            () -> lane.allCompleted(ids));
                    lane.finish();
                    for (String id : ids) {
                        assertThat(lane.log.attempts(id)).as(id + ": one attempt").extracting(MatrixLog.Attempt::attempt)
                                .containsExactly(1);
                    }
                });
    }

    @Order(10)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane10DeployDuringJobsLongerThanTheGrace(Profile profile) throws Exception {
        lane("10 a deploy during 15 s jobs, grace 5 s", "the killed jobs run again, each completes once", profile, 2,
                lane -> {
                    lane.supervise();
                    List<String> ids = Lane.ids(2);
                    lane.dispatch(ids.stream().map(id -> payload(id, "sleep", 15_000, 0)).toArray(Map[]::new));
                    lane.await(Duration.ofSeconds(60), "both running", () -> lane.log.events().size() >= 2);
                    Thread.sleep(1_000);
                    lane.deploy();
                    assertThat(lane.log.events()).as("nothing completed in the deploy")
                            .noneMatch(e -> e.event().equals("completed"));
                    lane.supervise();
                    lane.await(Duration.ofSeconds(60), "both completed", () -> lane.allCompleted(ids));
                    lane.finish();
                    for (String id : ids) {
                        assertThat(lane.log.attempts(id)).as(id).extracting(MatrixLog.Attempt::attempt)
                                .containsExactly(1, 2);
                        assertThat(lane.log.count(id, "completed")).as(id).isOne();
                    }
                }, "--timeout", "60", "--shutdown-grace", "5");
    }

    @Order(11)
    @ParameterizedTest
    @EnumSource(Profile.class)
    void lane11DeployKillsTheSecondJobOfABatch(Profile profile) throws Exception {
        lane("11 one worker, two 8 s jobs of a batch, a deploy kills it in the second", "the first does not run"
                + " again", profile, 1, lane -> {
                    lane.supervise();
                    lane.dispatch(payload("first", "sleep", 8_000, 0), payload("second", "sleep", 8_000, 0));
                    lane.await(Duration.ofSeconds(60), "the second running", () -> lane.count("second", "started") == 1);
                    Thread.sleep(1_000);
                    lane.deploy();
                    lane.supervise();
                    lane.await(Duration.ofSeconds(60), "the second completed", () -> lane.count("second", "completed") == 1);
                    lane.finish();
                    assertThat(lane.log.attempts("first")).extracting(MatrixLog.Attempt::attempt).containsExactly(1);
                    assertThat(lane.log.attempts("second")).extracting(MatrixLog.Attempt::attempt).containsExactly(1, 2);
                    assertThat(lane.log.count("first", "completed")).isOne();
                    assertThat(lane.log.count("second", "completed")).isOne();
                }, "--workers", "1", "--timeout", "60", "--shutdown-grace", "3");
    }
}
