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
    static Lane open(ReginaClient regina, String url, Path dir, String name, FailureMatrixIT.Profile profile,
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

    /** A deploy of the newest supervisor: SIGTERM, exit 0 once its workers are gone; returns when it sent it. */
    Instant deploy() throws InterruptedException {
        SupervisorProcess supervisor = supervisors.get(supervisors.size() - 1);
        Instant at = Instant.now();
        int exit = supervisor.deploy(Duration.ofSeconds(60));
        assertThat(exit).as("the supervisor's exit code after SIGTERM\n" + supervisor.tail()).isZero();
        return at;
    }

    /** SIGKILL on the newest supervisor. */
    void killSupervisor() throws InterruptedException {
        supervisors.get(supervisors.size() - 1).killHard();
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
