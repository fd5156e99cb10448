package io.regina.worker;

import io.regina.client.FailedJob;
import io.regina.client.FailedJobQuery;
import io.regina.client.Message;
import io.regina.client.PopOptions;
import io.regina.client.ReginaClient;
import io.regina.testing.Eventually;
import io.regina.testing.RunningBroker;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link Worker} against the real broker, with job kinds that throw, release, fail, time out or take their
 * time, in both profiles: prefetch 1 with synchronous acks, and prefetch 4 with async acks, a journal and
 * pop-ahead.
 */
class WorkerIT extends RunningBroker {
    private static final Duration LONG = Duration.ofSeconds(30);

    record Task(String id) {
    }

    /** One attempt a job saw: which, and when it started. */
    record Run(int attempt, Instant at) {
    }

    private final Map<String, List<Run>> runs = new ConcurrentHashMap<>();
    private final List<String> completed = new CopyOnWriteArrayList<>();
    private final List<String> failing = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream journal = new ByteArrayOutputStream();
    private ReginaClient regina;
    private String q;

    @BeforeEach
    void client() {
        regina = ReginaClient.builder().urls("http://127.0.0.1:" + port).build();
        q = "worker-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private void ran(Task task, JobContext job) {
        runs.computeIfAbsent(task.id(), id -> new CopyOnWriteArrayList<>()).add(new Run(job.attempt(), Instant.now()));
    }

    private JobKind<Task> kind(String name, JobHandler<Task> body) {
        return JobKind.of(name, Task.class, (task, job) -> {
            ran(task, job);
            body.handle(task, job);
        });
    }

    private Worker.Builder worker(boolean batched) {
        Worker.Builder builder = Worker.builder(regina, q).pollTimeout(Duration.ofSeconds(1)).leaseSeconds(30)
                .prefetch(batched ? 4 : 1).listener(new JobListener() {
                    @Override
                    public void after(JobEvent job, Verdict verdict) {
                        if (verdict instanceof Verdict.Complete) {
                            completed.add(id(job.message()));
                        }
                    }

                    @Override
                    public void failing(JobEvent job, String reason, Throwable cause) {
                        failing.add(id(job.message()));
                    }
                });
        return batched ? builder.asyncAcks(true).popAhead(true).journal(new JournalLines(journal, regina.json()))
                : builder;
    }

    private static String id(Message message) {
        return message.data().path("data").path("id").asString();
    }

    private List<FailedJob> failedJobs() {
        return regina.failedJobs().list(FailedJobQuery.ofQueue(q)).items();
    }

    private FailedJob failedJob(String id) {
        return failedJobs().stream().filter(r -> r.data().path("data").path("id").asString().equals(id)).findFirst()
                .orElseThrow();
    }

    @ParameterizedTest(name = "prefetch 4, async acks: {0}")
    @ValueSource(booleans = {false, true})
    void eachKindEndsAsItsOptionsSay(boolean batched) throws Exception {
        Worker worker = worker(batched)
                .job(kind("always-throws", (task, job) -> {
                    throw new IllegalStateException("always " + job.attempt());
                }).options(JobOptions.defaults().tries(3).backoff(2)))
                .job(kind("throws-once", (task, job) -> {
                    if (job.attempt() == 1) {
                        throw new IllegalStateException("first time");
                    }
                }).options(JobOptions.defaults().tries(2)))
                .job(kind("releases-once", (task, job) -> {
                    if (job.attempt() == 1) {
                        job.release(Duration.ofMillis(500));
                    }
                }).options(JobOptions.defaults().tries(2)))
                .job(kind("fails", (task, job) -> job.fail("card declined")).options(JobOptions.defaults().tries(5)))
                .job(kind("sleeps", (task, job) -> Thread.sleep(5_000))
                        .options(JobOptions.defaults().tries(1).timeout(Duration.ofMillis(500))))
                .build();
        for (String kind : List.of("always-throws", "throws-once", "releases-once", "fails", "sleeps")) {
            regina.dispatch(q, kind, new Task(kind));
        }
        regina.dispatch(q, "nobody-runs-this", new Task("unknown"));

        Thread thread = worker.start();
        Eventually.await(LONG, "every job settled", () -> regina.depth(q, null).total() == 0);
        assertThat(worker.stop(Duration.ofSeconds(5))).isTrue();
        thread.join(1_000);
        assertThat(thread.isAlive()).isFalse();

        List<Run> throwing = runs.get("always-throws");
        assertThat(throwing).extracting(Run::attempt).containsExactly(1, 2, 3);
        for (int i = 1; i < throwing.size(); i++) {
            assertThat(Duration.between(throwing.get(i - 1).at(), throwing.get(i).at()))
                    .as("backoff 2 s before attempt %d", i + 1).isGreaterThanOrEqualTo(Duration.ofMillis(1_900));
        }
        FailedJob exhausted = failedJob("always-throws");
        assertThat(exhausted.error()).isEqualTo("java.lang.IllegalStateException: always 3");
        assertThat(exhausted.attempts()).isEqualTo(3);

        assertThat(runs.get("throws-once")).extracting(Run::attempt).containsExactly(1, 2);
        assertThat(runs.get("releases-once")).extracting(Run::attempt).containsExactly(1, 2);
        assertThat(completed).containsOnlyOnce("throws-once", "releases-once");

        assertThat(runs.get("fails")).hasSize(1);
        assertThat(failedJob("fails").error()).isEqualTo("card declined");
        assertThat(runs.get("sleeps")).hasSize(1);
        assertThat(failedJob("sleeps").error()).isEqualTo("sleeps timed out after PT0.5S");
        assertThat(failedJob("unknown").error()).startsWith("no handler for job kind 'nobody-runs-this'");
        assertThat(failedJobs()).hasSize(4);
        assertThat(completed).containsExactlyInAnyOrder("throws-once", "releases-once");
        assertThat(failing).containsExactlyInAnyOrder("always-throws", "fails", "sleeps", "unknown");
        if (batched) {
            assertJournalFollowsEachDelivery();
        }
    }

    /** Every started job was leased first and finished after; every finished one acked. */
    private void assertJournalFollowsEachDelivery() {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : journal.toString(StandardCharsets.UTF_8).split("\n")) {
            lines.add(regina.json().readTree(line));
        }
        List<String> leased = new ArrayList<>();
        List<String> finished = new ArrayList<>();
        int acked = 0;
        for (JsonNode line : lines) {
            String key = line.path("leaseId").asString() + "/" + line.path("transactionId").asString();
            switch (line.path("event").asString()) {
                case "leased" -> line.path("jobs").forEach(j -> leased.add(line.path("leaseId").asString() + "/"
                        + j.path("transactionId").asString()));
                case "started" -> assertThat(leased).as("leased before started").contains(key);
                case "finished" -> finished.add(key);
                case "acked" -> {
                    assertThat(finished).as("finished before acked").contains(key);
                    acked++;
                }
                default -> assertThat(line.path("event").asString()).isEqualTo("done");
            }
        }
        assertThat(acked).isEqualTo(finished.size());
        assertThat(lines).allSatisfy(line -> assertThat(line.path("pid").asLong()).isPositive());
    }

    @ParameterizedTest(name = "prefetch 4, async acks: {0}")
    @ValueSource(booleans = {false, true})
    void aStopLetsTheRunningJobFinishAndHandsBackTheRestUncharged(boolean batched) throws Exception {
        Worker worker = worker(batched).prefetch(4)
                .job(kind("slow", (task, job) -> Thread.sleep(1_500)).options(JobOptions.defaults().tries(1)))
                .build();
        for (int i = 0; i < 4; i++) {
            regina.dispatch(q, "slow", new Task("slow-" + i));
        }
        worker.start();
        Eventually.await(LONG, "the first job to start", () -> runs.size() == 1);

        assertThat(worker.stop(Duration.ofSeconds(10))).isTrue();

        assertThat(completed).containsExactly("slow-0");
        assertThat(runs).containsOnlyKeys("slow-0");
        List<Message> back = regina.pop(q, PopOptions.defaults().batch(10)).messages();
        assertThat(back).extracting(m -> m.data().path("data").path("id").asString())
                .containsExactly("slow-1", "slow-2", "slow-3");
        assertThat(back).as("handed back uncharged").allSatisfy(m -> assertThat(m.attempts()).isEqualTo(1));
    }

    @Test
    void aStopPastItsGraceInterruptsTheJobAndReleasesItCounted() throws Exception {
        Worker worker = worker(false)
                .job(kind("endless", (task, job) -> Thread.sleep(60_000)).options(JobOptions.defaults().tries(3)))
                .build();
        regina.dispatch(q, "endless", new Task("endless"));
        worker.start();
        Eventually.await(LONG, "the job to start", () -> runs.size() == 1);

        assertThat(worker.stop(Duration.ofMillis(300))).isTrue();

        Message again = Eventually.await(LONG, "the released job to come back",
                () -> regina.pop(q, PopOptions.defaults()).messages(), m -> !m.isEmpty()).get(0);
        assertThat(again.attempts()).isEqualTo(2);
        assertThat(completed).isEmpty();
    }

    @Test
    void aJobLongerThanItsLeaseKeepsItByRenewal() {
        Worker worker = worker(false).leaseSeconds(2)
                .job(kind("long", (task, job) -> Thread.sleep(5_000)).options(JobOptions.defaults().timeout(null)))
                .build();
        regina.dispatch(q, "long", new Task("long"));
        worker.start();
        Eventually.await(LONG, "the job to start", () -> runs.size() == 1);

        Eventually.await(LONG, "the job to complete", () -> completed.contains("long"));

        // the listener hears of the job before its ack is sent: the ack lands a moment later
        Eventually.await(LONG, "its ack applied", () -> regina.depth(q, null).total() == 0);
        assertThat(runs.get("long")).as("nobody took it when its first lease would have expired")
                .extracting(Run::attempt).containsExactly(1);
    }

    @Test
    void popAheadBringsTheNextStripesBatchWhileTheLastJobRuns() {
        regina.configure(q, Map.of("stripes", 4));
        Worker worker = worker(true).prefetch(2)
                .job(kind("quick", (task, job) -> Thread.sleep(200)))
                .build();
        for (int i = 0; i < 8; i++) {
            regina.push(regina.dispatchJob(q, "quick", new Task("quick-" + i)).partition("stripe-" + i % 4));
        }
        worker.start();

        Eventually.await(LONG, "every job completed", () -> completed.size() == 8);
        Eventually.await(LONG, "every ack applied", () -> regina.depth(q, null).total() == 0);

        assertThat(completed).doesNotHaveDuplicates();
        assertThat(runs.values()).allSatisfy(r -> assertThat(r).extracting(Run::attempt).containsExactly(1));
        List<String> events = new ArrayList<>();
        for (String line : journal.toString(StandardCharsets.UTF_8).split("\n")) {
            events.add(regina.json().readTree(line).path("event").asString());
        }
        assertThat(String.join(",", events)).as("a batch leased ahead, before the last job of the one before ended")
                .containsPattern("started,(acked,)?leased,finished");
    }
}
