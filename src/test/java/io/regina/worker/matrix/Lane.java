package io.regina.worker.matrix;

import io.regina.client.FailedJob;
import io.regina.client.FailedJobQuery;
import io.regina.client.Job;
import io.regina.client.ReginaClient;
import io.regina.testing.Eventually;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One lane of the failure matrix in one profile: a fresh queue on the matrix's broker, a real
 * {@code queue:work} supervisor on it with 2 workers (timeout 20 s, lease 30 s, grace 35 s unless the lane
 * says otherwise), the jobs it dispatches, and what they and the supervisor wrote.
 */
final class Lane implements AutoCloseable {
    static final String JOB = MatrixJob.class.getName();

    /** What a lane does with its supervisors and jobs; it throws (an assertion) when the lane fails. */
    @FunctionalInterface
    interface Body {
        void run(Lane lane) throws Exception;
    }

    private final ReginaClient regina;
    private final Path dir;
    private final Map<String, String> options;
    final String queue;
    final MatrixLog log;
    private final List<SupervisorProcess> supervisors = new ArrayList<>();

    private Lane(ReginaClient regina, Path dir, String queue, Map<String, String> options) {
        this.regina = regina;
        this.dir = dir;
        this.queue = queue;
        this.options = options;
        this.log = new MatrixLog(dir.resolve(queue + ".matrix.jsonl"));
    }

    /**
     * {@code overrides}: option, value pairs ({@code null} value: a flag) over the lane defaults and the
     * profile's; {@code stripes}: the queue's partitions, i.e. how many workers can hold a batch at once.
     */
    static Lane open(ReginaClient regina, String url, Path dir, String name, Profile profile,
                     int stripes, String... overrides) {
        String queue = name + "-" + profile.name().toLowerCase(java.util.Locale.ROOT) + "-"
                + UUID.randomUUID().toString().substring(0, 6);
        regina.configure(queue, Map.of("stripes", stripes));
        Map<String, String> options = new LinkedHashMap<>();
        options.put("--url", url);
        options.put("--queue", queue);
        options.put("--workers", "2");
        options.put("--timeout", "20");
        options.put("--lease", "30");
        options.put("--shutdown-grace", "35");
        options.put("--tries", "3");
        options.put("--poll", "2");
        options.put("--memory", "1024");
        options.put("--classpath", Path.of("target", "test-classes").toAbsolutePath().toString());
        options.put("--job", JOB);
        options.put("--worker-java-opts", "-Xmx128m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC");
        options.putAll(profile.options());
        for (int i = 0; i < overrides.length; i += 2) {
            options.put(overrides[i], overrides[i + 1]);
        }
        return new Lane(regina, dir, queue, options);
    }

    /** Starts a supervisor (again, after a deploy: the same options). */
    SupervisorProcess supervise() throws IOException {
        List<String> args = new ArrayList<>();
        options.forEach((option, value) -> {
            args.add(option);
            if (value != null) {
                args.add(value);
            }
        });
        SupervisorProcess supervisor = SupervisorProcess.start(dir.resolve(queue + ".supervisor-" + supervisors.size()
                + ".log"), log.file(), args);
        supervisors.add(supervisor);
        return supervisor;
    }

    /** Pushes the jobs in one request, so they become visible together (and fill one batch). */
    @SafeVarargs
    final void dispatch(Map<String, Object>... payloads) {
        List<Job> jobs = new ArrayList<>();
        for (Map<String, Object> payload : payloads) {
            jobs.add(regina.dispatchJob(queue, JOB, payload));
        }
        regina.push(jobs);
    }

    List<FailedJob> failed() {
        return regina.failedJobs().list(FailedJobQuery.ofQueue(queue)).items();
    }

    long leftInQueue() {
        return regina.depth(queue, null).total();
    }

    void await(Duration timeout, String what, Eventually.Condition condition) {
        try {
            Eventually.await(timeout, what, condition);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + supervisorTails(), e);
        }
    }

    /** A deploy of the newest supervisor: see {@link #deploy(SupervisorProcess)}. */
    Instant deploy() throws InterruptedException {
        return deploy(newest());
    }

    /** A deploy: SIGTERM, exit 0 once its workers are gone; returns when it sent it. */
    Instant deploy(SupervisorProcess supervisor) throws InterruptedException {
        Instant at = Instant.now();
        int exit = supervisor.deploy(Duration.ofSeconds(60));
        assertThat(exit).as("the supervisor's exit code after SIGTERM\n" + supervisor.tail()).isZero();
        return at;
    }

    /** SIGKILL on the newest supervisor. */
    void killSupervisor() throws InterruptedException {
        newest().killHard();
    }

    private SupervisorProcess newest() {
        return supervisors.get(supervisors.size() - 1);
    }

    /** When any of this lane's supervisors saw {@code pid} exit. */
    Instant deathOf(long pid) {
        return supervisors.stream().map(s -> s.deathOf(pid)).filter(java.util.Objects::nonNull).findFirst()
                .orElse(null);
    }

    long supervisorLines(String fragment) throws IOException {
        long count = 0;
        for (SupervisorProcess supervisor : supervisors) {
            count += supervisor.count(fragment);
        }
        return count;
    }

    List<SupervisorProcess.WorkerEvent> workerEvents() throws IOException {
        List<SupervisorProcess.WorkerEvent> events = new ArrayList<>();
        for (SupervisorProcess supervisor : supervisors) {
            events.addAll(supervisor.workerEvents());
        }
        return events;
    }

    /**
     * Waits until each of {@code ids} has completed (at least once) and the broker holds nothing of the queue:
     * a job may complete in a worker whose ack the broker then refuses (its lease expired), and runs again.
     */
    void awaitAllDone(Duration timeout, List<String> ids) {
        await(timeout, "all " + ids.size() + " completed and acked",
                () -> log.counts("completed").keySet().containsAll(ids) && leftInQueue() == 0);
    }

    /** Every one of {@code ids} completed exactly once so far. */
    boolean allCompleted(List<String> ids) throws IOException {
        Map<String, Long> completed = log.counts("completed");
        return ids.stream().allMatch(id -> completed.getOrDefault(id, 0L) == 1);
    }

    /** Each of {@code ids} completed exactly once: the ones that did not are named, with their count. */
    void assertCompletedOnce(List<String> ids) throws IOException {
        Map<String, Long> completed = log.counts("completed");
        assertThat(ids.stream().filter(id -> completed.getOrDefault(id, 0L) != 1)
                .map(id -> id + " completed " + completed.getOrDefault(id, 0L) + " times").toList())
                .as("jobs not completed exactly once").isEmpty();
    }

    /** How many {@code event} lines {@code id} wrote; -1 while the log cannot be read. */
    long count(String id, String event) {
        try {
            return log.count(id, event);
        } catch (IOException e) {
            return -1;
        }
    }

    /**
     * Every lane ends with a deploy of each supervisor still running (exit 0), an empty queue, and no
     * overlapping attempts; and no hand-back was refused: a supervisor that read every journal line hands back
     * only leases still held.
     */
    void finish() throws Exception {
        for (SupervisorProcess supervisor : supervisors) {
            if (supervisor.alive()) {
                deploy(supervisor);
            }
        }
        assertThat(leftInQueue()).as("jobs left in " + queue).isZero();
        assertNoOverlap();
        assertThat(supervisorLines("hand-back refused")).as(supervisorTails()).isZero();
    }

    /** {@code j0} to {@code j<n-1>}. */
    static List<String> ids(int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add("j" + i);
        }
        return ids;
    }

    /** No two attempts of one job overlapped. */
    void assertNoOverlap() throws IOException {
        assertThat(log.overlap(this::deathOf)).as("overlapping attempts").isEmpty();
    }

    String supervisorTails() {
        StringBuilder tails = new StringBuilder();
        supervisors.forEach(s -> tails.append("--- supervisor of ").append(queue).append(":\n").append(s.tail())
                .append('\n'));
        return tails.toString();
    }

    @Override
    public void close() throws InterruptedException {
        for (SupervisorProcess supervisor : supervisors) {
            supervisor.close();
        }
    }
}
