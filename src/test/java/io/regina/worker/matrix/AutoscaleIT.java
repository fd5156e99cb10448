package io.regina.worker.matrix;

import io.regina.client.ReginaClient;
import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static io.regina.worker.matrix.MatrixLog.payload;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Autoscaling {@code queue:work} as an operator runs it: one broker process, real supervisors with
 * {@code --min}/{@code --max}, {@link MatrixJob} in their worker JVMs. How many workers a supervisor runs is
 * read from its own output: each {@code worker … started} adds one, each {@code worker … exited} takes one
 * away. {@code mvn verify -Pworkers} runs it beside the failure matrix.
 */
class AutoscaleIT {
    static final Path dir = Path.of("target", "autoscale");
    static BrokerProcess broker;
    static ReginaClient regina;

    @BeforeAll
    static void broker() throws IOException {
        Files.createDirectories(dir);
        broker = new BrokerProcess(dir.resolve("broker-" + System.currentTimeMillis()), FreePorts.next(),
                FreePorts.next()).start();
        regina = ReginaClient.builder().urls(broker.baseUrl()).build();
    }

    @AfterAll
    static void stopBroker() throws InterruptedException {
        if (broker != null) {
            broker.stop();
        }
    }

    @Test
    void aBurstScalesFromMinUpToMaxAndBackDownWhenIdle() throws Exception {
        try (Lane lane = Lane.open(regina, broker.baseUrl(), dir, "burst", Profile.SYNC, 4,
                "--min", "1", "--max", "4", "--cooldown", "3")) {
            SupervisorProcess supervisor = lane.supervise();
            lane.await(Duration.ofSeconds(30), "the first worker", () -> live(supervisor) == 1);
            Thread.sleep(2_000);
            assertThat(live(supervisor)).as("no work, --min workers").isOne();

            List<String> ids = ids(24);
            Instant dispatched = Instant.now();
            lane.dispatch(ids.stream().map(id -> payload(id, "sleep", 1_500, 0)).toArray(Map[]::new));
            lane.await(Duration.ofSeconds(30), "4 workers", () -> live(supervisor) == 4);
            Duration toMax = Duration.between(dispatched, Instant.now());
            lane.await(Duration.ofSeconds(90), "all 24 completed", () -> allCompleted(lane, ids));
            lane.await(Duration.ofSeconds(40), "back to 1 worker when idle", () -> live(supervisor) == 1);

            assertThat(toMax).as("from the burst to --max").isLessThan(Duration.ofSeconds(20));
            assertThat(peak(List.of(supervisor))).as("never more than --max").isEqualTo(4);
            assertThat(supervisor.count("(scale_down)")).as("the 3 workers let go exited as such").isEqualTo(3);
            assertThat(supervisor.count("(crash)")).isZero();
            lane.deploy();
            assertThat(lane.leftInQueue()).isZero();
            lane.assertNoOverlap();
            for (String id : ids) {
                assertThat(lane.log.attempts(id)).as(id + ": once").extracting(MatrixLog.Attempt::attempt)
                        .containsExactly(1);
            }
        }
    }

    @Test
    void twoSupervisorsOnOneQueueRunTheTargetBetweenThem() throws Exception {
        try (Lane lane = Lane.open(regina, broker.baseUrl(), dir, "pair", Profile.SYNC, 8,
                "--min", "1", "--max", "4", "--cooldown", "3")) {
            SupervisorProcess first = lane.supervise();
            SupervisorProcess second = lane.supervise();
            List<SupervisorProcess> both = List.of(first, second);
            lane.await(Duration.ofSeconds(30), "both registered, one worker each",
                    () -> first.count("2 supervisor(s) live") >= 1 && second.count("2 supervisor(s) live") >= 1
                            && live(first) == 1 && live(second) == 1);

            // 5 jobs: a target of 5 over two supervisors of --max 4; alone, each would run 4
            List<String> ids = ids(5);
            Instant dispatched = Instant.now();
            lane.dispatch(ids.stream().map(id -> payload(id, "sleep", 10_000, 0)).toArray(Map[]::new));
            lane.await(Duration.ofSeconds(25), "5 workers between them", () -> live(first) + live(second) == 5);
            assertThat(List.of(live(first), live(second))).as("the target split 3 + 2").containsExactlyInAnyOrder(3, 2);
            lane.await(Duration.ofSeconds(60), "all 5 completed", () -> allCompleted(lane, ids));
            lane.await(Duration.ofSeconds(40), "back to one worker each",
                    () -> live(first) == 1 && live(second) == 1);

            assertThat(peak(both)).as("together never more than the target").isEqualTo(5);
            assertThat(Duration.between(dispatched, Instant.now())).isLessThan(Duration.ofSeconds(90));
            for (SupervisorProcess supervisor : both) {
                assertThat(supervisor.deploy(Duration.ofSeconds(60))).as("exit code after SIGTERM").isZero();
            }
            assertThat(lane.leftInQueue()).isZero();
            lane.assertNoOverlap();
            for (String id : ids) {
                assertThat(lane.log.attempts(id)).as(id + ": once").extracting(MatrixLog.Attempt::attempt)
                        .containsExactly(1);
            }
        }
    }

    /** Workers of {@code supervisor} started and not yet seen to exit. */
    private static int live(SupervisorProcess supervisor) throws IOException {
        int live = 0;
        for (SupervisorProcess.WorkerEvent event : supervisor.workerEvents()) {
            live += step(event);
        }
        return live;
    }

    /** The most workers the supervisors ran at once, together, from their events in time order. */
    private static int peak(List<SupervisorProcess> supervisors) throws IOException {
        List<SupervisorProcess.WorkerEvent> events = new ArrayList<>();
        for (SupervisorProcess supervisor : supervisors) {
            events.addAll(supervisor.workerEvents());
        }
        events.sort(Comparator.comparing(SupervisorProcess.WorkerEvent::at));
        int live = 0;
        int peak = 0;
        for (SupervisorProcess.WorkerEvent event : events) {
            live += step(event);
            peak = Math.max(peak, live);
        }
        return peak;
    }

    private static int step(SupervisorProcess.WorkerEvent event) {
        return event.what().equals("started") ? 1 : event.what().startsWith("exited") ? -1 : 0;
    }

    private static List<String> ids(int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add("j" + i);
        }
        return ids;
    }

    private static boolean allCompleted(Lane lane, List<String> ids) throws IOException {
        for (String id : ids) {
            if (lane.log.count(id, "completed") != 1) {
                return false;
            }
        }
        return true;
    }
}
