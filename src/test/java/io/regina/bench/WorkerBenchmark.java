package io.regina.bench;

import io.regina.client.Job;
import io.regina.client.ReginaClient;
import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The worker lanes of issue 11, run with the real supervisor: {@code java -jar regina.jar queue:work} and its
 * worker JVMs running {@link BenchJob}, against a broker jar of its own (fsync on). Lanes: a pool of 16, 32
 * and 64 workers on 10 ms jobs and 32 on empty ones (jobs/s, broker CPU per 1,000 jobs, the workers' summed
 * PSS); a burst of 30,000 empty jobs autoscaling from 1 to 64 workers (time until all done, time to the
 * peak); paced 500 jobs/s, one job per request, 16 workers × 10 ms (dispatch → job done, p50/p95/p99); HTTP
 * requests per job, counted from the broker's access log in a short lane of their own. Each pool lane
 * warms its workers up first (unrecorded). Run: {@code bench/scale.sh workers}.
 */
public final class WorkerBenchmark {
    private static final String WORKER_JAVA_OPTS = "-Xmx64m -Xss512k -XX:+UseSerialGC -XX:TieredStopAtLevel=1";
    private static final int PUSH_BATCH = 1_000;

    private final Path dir;
    private final String url;
    private final ReginaClient regina;
    private final ProcessStats broker;
    private final Map<String, String> rows = new LinkedHashMap<>();
    private int lanes;

    private WorkerBenchmark(Path dir, BrokerProcess broker, int clockTicks) {
        this.dir = dir;
        this.url = broker.baseUrl();
        this.regina = ReginaClient.builder().urls(url).requestTimeout(Duration.ofSeconds(30)).build();
        this.broker = new ProcessStats(broker.pid(), clockTicks);
    }

    /** Wall-clock microseconds (the JDK's clock has them on Linux), comparable across the JVMs of one machine. */
    static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }

    public static void main(String[] args) throws Exception {
        String only = args.length > 0 ? args[0] : "all";
        int clockTicks = Integer.parseInt(System.getProperty("clk.tck", "100"));
        String heap = System.getProperty("broker.heap", "-Xmx2g");
        Path dir = Files.createTempDirectory("regina-workers");
        String load = Files.readString(Path.of("/proc/loadavg")).trim();
        try (BrokerProcess broker = new BrokerProcess(dir.resolve("broker"), FreePorts.next(), FreePorts.next(), heap)
                .start()) {
            WorkerBenchmark bench = new WorkerBenchmark(dir, broker, clockTicks);
            System.out.printf("%n## Worker lanes (%s, %d cores, Java %s, fsync on, broker %s, workers %s, load average"
                    + " before: %s)%n%n| lane | figure | value |%n|---|---|---|%n", LocalDate.now(),
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), heap,
                    WORKER_JAVA_OPTS, load);
            if (only.equals("all") || only.equals("pool")) {
                bench.pool(16, 10, 8_000);
                bench.pool(32, 10, 10_000);
                bench.pool(64, 10, 12_000);
                bench.pool(32, 0, 20_000);
            }
            if (only.equals("all") || only.equals("burst")) {
                bench.burst(30_000, 64);
            }
            if (only.equals("all") || only.equals("paced")) {
                bench.paced(500, 16, 10, Duration.ofSeconds(20));
            }
            bench.rows.forEach((k, v) -> System.out.println("| " + k + " | " + v + " |"));
        }
        if (only.equals("all") || only.equals("requests")) {
            requestsPerJob(clockTicks);
        }
    }

    /** K workers on a K-stripe queue, N jobs pushed in bulk: jobs/s, broker CPU per 1,000, workers' PSS. */
    private void pool(int workers, int jobMs, int jobs) throws Exception {
        String lane = workers + " workers × " + (jobMs == 0 ? "empty" : jobMs + " ms") + " jobs";
        String queue = queue("pool", workers);
        try (Run run = start(queue, workers, List.of("--workers", Integer.toString(workers)))) {
            run.dispatch(workers * 4L, 0, 0);
            run.awaitDone(workers * 4L, Duration.ofMinutes(3));
            double cpu = broker.cpuSeconds();
            long first = micros();
            run.dispatch(jobs, jobMs, 0);
            run.awaitDone(workers * 4L + jobs, Duration.ofMinutes(10));
            double seconds = (run.completions.last - first) / 1e6;
            double cpuPerThousand = (broker.cpuSeconds() - cpu) / jobs * 1_000;
            rows.put(lane + " | jobs/s", String.format("%,.0f", jobs / seconds));
            rows.put(lane + " | broker CPU s per 1,000 jobs", String.format("%.3f", cpuPerThousand));
            rows.put(lane + " | workers' summed PSS", String.format("%,.0f MiB (%d JVMs)", run.workersPssMiB(),
                    run.workerPids().size()));
        }
    }

    /** N empty jobs at once on a supervisor scaling between 1 and {@code max}: time until done, time to peak. */
    private void burst(int jobs, int max) throws Exception {
        String queue = queue("burst", max);
        try (Run run = start(queue, max, List.of("--min", "1", "--max", Integer.toString(max)))) {
            run.awaitWorkers(1, Duration.ofMinutes(1));
            long first = micros();
            run.dispatch(jobs, 0, 0);
            int peak = 0;
            long peakAt = first;
            while (run.completions.count() < jobs) {
                int now = run.workerPids().size();
                if (now > peak) {
                    peak = now;
                    peakAt = micros();
                }
                run.completions.read();
                run.checkAlive();
                Thread.sleep(100);
                if (micros() - first > TimeUnit.MINUTES.toMicros(10)) {
                    throw new IllegalStateException("the burst did not finish in 10 minutes: " + run.completions.count()
                            + " of " + jobs);
                }
            }
            String lane = String.format("burst of %,d empty jobs, --min 1 --max %d", jobs, max);
            rows.put(lane + " | time until all done", String.format("%.1f s", (run.completions.last - first) / 1e6));
            rows.put(lane + " | time to the peak", String.format("%.1f s (%d workers)", (peakAt - first) / 1e6, peak));
        }
    }

    /** One job per request at {@code rate}/s for {@code length}: dispatch → job done latency. */
    private void paced(int rate, int workers, int jobMs, Duration length) throws Exception {
        String queue = queue("paced", workers);
        try (Run run = start(queue, workers, List.of("--workers", Integer.toString(workers)))) {
            run.dispatch(workers * 4L, 0, 0);
            run.awaitDone(workers * 4L, Duration.ofMinutes(3));
            int jobs = (int) (rate * length.toSeconds());
            long interval = TimeUnit.SECONDS.toNanos(1) / rate;
            long next = System.nanoTime();
            for (int i = 0; i < jobs; i++) {
                LockSupport.parkNanos(next - System.nanoTime());
                next += interval;
                long at = micros();
                regina.push(regina.dispatchJob(queue, BenchJob.class.getName(),
                        new BenchJob.Payload(workers * 4L + i, jobMs, at)));
            }
            run.awaitDone(workers * 4L + jobs, Duration.ofMinutes(3));
            Histogram latency = run.completions.latencies(workers * 4L);
            String lane = String.format("paced %d jobs/s, %d workers × %d ms", rate, workers, jobMs);
            rows.put(lane + " | dispatch → done p50 / p95 / p99", String.format("%.1f / %.1f / %.1f ms",
                    latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(95) / 1e3,
                    latency.getValueAtPercentile(99) / 1e3));
        }
    }

    /** A broker of its own with Reactor Netty's access log on: every HTTP request one line. */
    private static void requestsPerJob(int clockTicks) throws Exception {
        Path dir = Files.createTempDirectory("regina-workers-requests");
        try (BrokerProcess broker = new BrokerProcess(dir.resolve("broker"), FreePorts.next(), FreePorts.next(),
                "-Xmx1g", "-Dreactor.netty.http.server.accessLogEnabled=true").start()) {
            WorkerBenchmark bench = new WorkerBenchmark(dir, broker, clockTicks);
            for (String profile : List.of("sync", "async")) {
                List<String> options = new ArrayList<>(List.of("--workers", "8"));
                if (profile.equals("async")) {
                    options.addAll(List.of("--prefetch", "4", "--async-acks", "--pop-ahead"));
                }
                String queue = bench.queue("requests-" + profile, 8);
                int jobs = 2_000;
                try (Run run = bench.start(queue, 8, options)) {
                    run.dispatch(32, 0, 0);
                    run.awaitDone(32, Duration.ofMinutes(3));
                    long before = accessLines(broker);
                    run.dispatch(jobs, 10, 32);
                    run.awaitDone(32 + jobs, Duration.ofMinutes(5));
                    long requests = accessLines(broker) - before - jobs / PUSH_BATCH;
                    System.out.printf("| 8 workers × 10 ms, %s | HTTP requests per job (workers' only) | %.2f |%n",
                            profile.equals("sync") ? "prefetch 1, sync acks" : "prefetch 4, async acks, pop-ahead",
                            requests / (double) jobs);
                }
            }
        }
    }

    private static long accessLines(BrokerProcess broker) throws IOException {
        try (var lines = Files.lines(broker.logFile().toPath(), StandardCharsets.UTF_8)) {
            return lines.filter(line -> line.contains("AccessLog")).count();
        }
    }

    private String queue(String lane, int stripes) {
        String queue = "bench-" + lane + "-" + stripes + "-" + (++lanes);
        regina.configure(queue, Map.of("stripes", stripes));
        return queue;
    }

    private Run start(String queue, int stripes, List<String> options) throws IOException {
        Path jobs = Files.createDirectories(dir.resolve(queue));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-jar", BrokerProcess.jar().toAbsolutePath().toString(), "queue:work", "--url", url,
                "--queue", queue, "--job", BenchJob.class.getName(),
                "--classpath", Path.of("target", "test-classes").toAbsolutePath().toString(),
                "--timeout", "60", "--lease", "60", "--poll", "5", "--worker-java-opts", WORKER_JAVA_OPTS));
        command.addAll(options);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(queue + ".supervisor.log").toFile()));
        builder.environment().put("BENCH_JOBS_DIR", jobs.toString());
        return new Run(queue, builder.start(), new Completions(jobs));
    }

    /** One supervisor on one queue, and what its jobs wrote. */
    private final class Run implements AutoCloseable {
        private final String queue;
        private final Process supervisor;
        private final Completions completions;
        private long dispatched;

        Run(String queue, Process supervisor, Completions completions) {
            this.queue = queue;
            this.supervisor = supervisor;
            this.completions = completions;
        }

        /** {@code count} jobs of {@code jobMs}, numbered from {@code dispatched}, in requests of 1,000. */
        void dispatch(long count, long jobMs, long firstId) {
            long id = Math.max(firstId, dispatched);
            for (long sent = 0; sent < count; ) {
                List<Job> batch = new ArrayList<>(PUSH_BATCH);
                long at = micros();
                for (int i = 0; i < PUSH_BATCH && sent < count; i++, sent++) {
                    batch.add(regina.dispatchJob(queue, BenchJob.class.getName(), new BenchJob.Payload(id++, jobMs, at)));
                }
                regina.push(batch);
            }
            dispatched = id;
        }

        void awaitDone(long jobs, Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (completions.read() < jobs) {
                checkAlive();
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(queue + ": " + completions.count() + " of " + jobs + " jobs done in "
                            + timeout);
                }
                Thread.sleep(20);
            }
        }

        void awaitWorkers(int count, Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (workerPids().size() < count) {
                checkAlive();
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(queue + ": not " + count + " workers within " + timeout);
                }
                Thread.sleep(100);
            }
        }

        void checkAlive() {
            if (!supervisor.isAlive()) {
                throw new IllegalStateException(queue + ": the supervisor exited with " + supervisor.exitValue());
            }
        }

        List<Long> workerPids() {
            return supervisor.children().map(ProcessHandle::pid).toList();
        }

        double workersPssMiB() throws IOException {
            long kib = 0;
            for (long pid : workerPids()) {
                for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/smaps_rollup"))) {
                    if (line.startsWith("Pss:")) {
                        kib += Long.parseLong(line.replaceAll("[^0-9]", ""));
                    }
                }
            }
            return kib / 1024.0;
        }

        /** A deploy: SIGTERM, and SIGKILL for whatever is still there a minute later. */
        @Override
        public void close() throws InterruptedException {
            supervisor.destroy();
            if (!supervisor.waitFor(60, TimeUnit.SECONDS)) {
                supervisor.descendants().forEach(ProcessHandle::destroyForcibly);
                supervisor.destroyForcibly().waitFor();
            }
        }
    }

    /** Reads the lines the jobs appended since the last read: which ids are done, when, and how long each took. */
    private static final class Completions {
        private final Path dir;
        private final Map<Path, Long> offsets = new HashMap<>();
        private final Map<Long, long[]> done = new HashMap<>();
        private long last;

        Completions(Path dir) {
            this.dir = dir;
        }

        long count() {
            return done.size();
        }

        long read() throws IOException {
            try (var files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    readNew(file);
                }
            }
            return done.size();
        }

        private void readNew(Path file) throws IOException {
            try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
                long offset = offsets.getOrDefault(file, 0L);
                long length = in.length();
                if (length <= offset) {
                    return;
                }
                byte[] bytes = new byte[(int) (length - offset)];
                in.seek(offset);
                in.readFully(bytes);
                int end = new String(bytes, StandardCharsets.US_ASCII).lastIndexOf('\n') + 1;
                for (String line : new String(bytes, 0, end, StandardCharsets.US_ASCII).split("\n")) {
                    if (line.isEmpty()) {
                        continue;
                    }
                    String[] f = line.split(" ");
                    long completed = Long.parseLong(f[2]);
                    done.putIfAbsent(Long.parseLong(f[0]), new long[] {Long.parseLong(f[1]), completed});
                    last = Math.max(last, completed);
                }
                offsets.put(file, offset + end);
            }
        }

        /** Dispatch → done of every job numbered from {@code fromId}, in microseconds. */
        Histogram latencies(long fromId) {
            Histogram histogram = new Histogram(TimeUnit.MINUTES.toMicros(5), 3);
            done.forEach((id, times) -> {
                if (id >= fromId) {
                    histogram.recordValue(Math.max(0, times[1] - times[0]));
                }
            });
            return histogram;
        }
    }
}
