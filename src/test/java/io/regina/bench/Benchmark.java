package io.regina.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SynchronizedHistogram;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Regina's benchmark client: a {@code main}, not a test. {@code bench/run.sh} starts a broker and runs this
 * against it; it prints a Markdown table and writes CSV. Every lane checks its own outcome (exact job set
 * completed, none twice) and a lane that fails prints its error instead of a number.
 *
 * <p>Arguments: {@code --url http://127.0.0.1:PORT} (required), {@code --quick}, {@code --runs N},
 * {@code --csv PATH}, {@code --md PATH}, {@code --broker-pid PID}, {@code --nproc N}, {@code --java TEXT},
 * {@code --broker TEXT}, {@code --clk-tck N}, {@code --lanes push,pool,paced,partitions},
 * {@code --budget-seconds N} (no new run starts after it; default 150 quick, 540 full).
 */
public final class Benchmark {

    private static final int PAYLOAD_BYTES = 256;
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final PrintStream LOG = System.err;

    private final String url;
    private final boolean quick;
    private final int runs;
    private final long brokerPid;
    private final int clkTck;
    private final HttpClient http;
    private final Map<String, Row> rows = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();
    private final String nonce = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

    private Benchmark(String url, boolean quick, int runs, long brokerPid, int clkTck) {
        this.url = url;
        this.quick = quick;
        this.runs = runs;
        this.brokerPid = brokerPid;
        this.clkTck = clkTck;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .executor(Executors.newFixedThreadPool(4, daemon("http-client")))
                .build();
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = parse(args);
        if (!opts.containsKey("url")) {
            System.err.println("usage: Benchmark --url http://127.0.0.1:PORT [--quick] [--runs N] [--csv PATH] "
                    + "[--md PATH] [--broker-pid PID] [--nproc N] [--java TEXT] [--broker TEXT] [--lanes a,b]");
            System.exit(2);
        }
        boolean quick = opts.containsKey("quick");
        int runs = Integer.parseInt(opts.getOrDefault("runs", quick ? "1" : "3"));
        Benchmark bench = new Benchmark(opts.get("url"), quick, runs,
                Long.parseLong(opts.getOrDefault("broker-pid", "0")),
                Integer.parseInt(opts.getOrDefault("clk-tck", "100")));
        Set<String> lanes = new HashSet<>(Arrays.asList(
                opts.getOrDefault("lanes", "push,pool,paced,partitions").split(",")));
        String started = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        String loadBefore = loadAverage();
        long t0 = System.nanoTime();
        bench.warmUp();
        long budget = TimeUnit.SECONDS.toNanos(Long.parseLong(opts.getOrDefault("budget-seconds",
                quick ? "150" : "540")));
        for (int run = 1; run <= runs; run++) {
            if (run > 1 && System.nanoTime() - t0 > budget) {
                bench.notes.add("- runs " + run + ".." + runs + " skipped: the time budget ("
                        + budget / 1_000_000_000 + " s) was spent; medians are over the runs made");
                LOG.println("time budget spent: skipping runs " + run + ".." + runs);
                break;
            }
            // lanes alternate within a run; each run repeats every lane once
            if (lanes.contains("push")) {
                bench.pushLane(run);
            }
            if (lanes.contains("pool")) {
                bench.poolLane(run);
            }
            if (lanes.contains("paced")) {
                bench.pacedLane(run);
            }
            if (lanes.contains("partitions")) {
                bench.partitionLane(run);
            }
        }
        double minutes = (System.nanoTime() - t0) / 60e9;
        String conditions = bench.conditions(opts, started, minutes, loadBefore, loadAverage());
        String table = bench.table();
        String md = conditions + "\n" + table + "\n" + String.join("\n", bench.notes) + "\n";
        System.out.println(md);
        Path csv = Path.of(opts.getOrDefault("csv", "target/bench/results.csv"));
        Files.createDirectories(csv.toAbsolutePath().getParent());
        Files.writeString(csv, bench.csv(started));
        if (opts.containsKey("md")) {
            Files.writeString(Path.of(opts.get("md")), md);
        }
        LOG.println("wrote " + csv);
        boolean anyError = bench.rows.values().stream().anyMatch(r -> r.runs.stream().anyMatch(x -> x.error != null));
        System.exit(anyError ? 1 : 0);
    }

    // ---------------------------------------------------------------- lanes

    /**
     * Warms the broker's JIT before any lane: 16 workers push, pop and ack on a striped queue for
     * 15 s (quick) or 30 s (full), so the first lane does not measure a cold JVM.
     */
    private void warmUp() {
        String q = "bench-warmup-" + nonce;
        Counters c = new Counters();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(quick ? 15 : 30);
        ExecutorService workers = Executors.newFixedThreadPool(16);
        try {
            List<java.util.concurrent.Future<?>> running = new ArrayList<>();
            for (int w = 0; w < 16; w++) {
                int worker = w;
                running.add(workers.submit(() -> {
                    for (int i = 0; System.nanoTime() < until; i++) {
                        push(c, pushBody(q, null, 1, worker * 10_000_000 + i, "w-"), 1);
                        Resp r = get(c, "/api/v1/pop/queue/" + q + "?batch=1", Duration.ofSeconds(10));
                        if (r.status == 200) {
                            for (Msg m : messages(r.body)) {
                                ack(c, m);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : running) {
                f.get();
            }
            deleteQueue(c, q);
            LOG.printf("warm-up done (%d requests, %d non-2xx)%n", c.requests.get(), c.non2xx.get());
        } catch (Exception e) {
            LOG.println("warm-up failed: " + e);
        } finally {
            workers.shutdownNow();
        }
    }

    /** Lane 1: push messages/s at 1, 100 and 1,000 messages per request. */
    private void pushLane(int run) {
        int producers = 16;
        int seconds = quick ? 5 : 10;
        for (int batch : new int[] {1, 100, 1000}) {
            String cond = "batch " + batch + ", " + producers + " producers, " + seconds + " s";
            String key = "1 push|" + cond;
            LOG.printf("[run %d] push: %s%n", run, cond);
            String q = "bench-push-b" + batch + "-r" + run + "-" + nonce;
            Counters c = new Counters();
            RaftSample before = raftSample();
            CpuSample cpuBefore = cpu();
            String laneError = null;
            try {
                String body = pushBody(q, null, batch, 0, null);
                AtomicLong queued = new AtomicLong();
                AtomicLong partial = new AtomicLong();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
                long start = System.nanoTime();
                runThreads(producers, "producer", i -> {
                    while (System.nanoTime() < deadline) {
                        Resp r = post(c, "/api/v1/push", body, Duration.ofSeconds(60));
                        if (r.status == 201) {
                            int n = count(r.body, "\"status\":\"queued\"");
                            queued.addAndGet(n);
                            if (n != batch) {
                                partial.incrementAndGet();
                            }
                        }
                    }
                });
                double elapsed = (System.nanoTime() - start) / 1e9;
                String err = c.failure();
                if (err == null && queued.get() == 0) {
                    err = "no message was queued";
                }
                if (err != null && c.byStatus.containsKey(413)) {
                    err += " (request body " + body.getBytes(StandardCharsets.UTF_8).length / 1024 + " KiB)";
                }
                laneError = err;
                String check = "queued " + queued.get() + ", partial answers " + partial.get();
                record(key, "msgs/s", "msg/s", run, err == null ? queued.get() / elapsed : Double.NaN, err, c, check);
                record(key, "requests/s", "req/s", run, err == null ? c.ok.get() / elapsed : Double.NaN, err, c, "");
                recordCpu(key, run, cpuBefore, queued.get(), "msgs");
            } catch (Exception e) {
                laneError = describe(e);
                record(key, "msgs/s", "msg/s", run, Double.NaN, laneError, c, "");
            }
            recordRaft(key, run, before, laneError);
            safeDelete(q);
        }
    }

    /** Lane 2: jobs/s of 32 workers draining a pre-filled queue; stripes 32 and 1; 10 ms and empty jobs. */
    private void poolLane(int run) {
        int workers = 32;
        for (int stripes : new int[] {32, 1}) {
            for (int jobMs : new int[] {10, 0}) {
                int jobs;
                if (stripes == 1) {
                    // one partition: one job in flight at a time, so fewer jobs keep the drain bounded
                    jobs = jobMs > 0 ? (quick ? 300 : 1_000) : (quick ? 1_000 : 2_000);
                } else {
                    jobs = quick ? 5_000 : 20_000;
                }
                poolRun(run, workers, stripes, jobMs, jobs);
            }
        }
    }

    private void poolRun(int run, int workers, int stripes, int jobMs, int jobs) {
        String cond = workers + " workers, " + (jobMs > 0 ? jobMs + " ms jobs" : "empty jobs") + ", stripes "
                + stripes + ", " + jobs + " jobs";
        String key = "2 worker pool|" + cond;
        LOG.printf("[run %d] pool: %s%n", run, cond);
        String q = "bench-pool-s" + stripes + "-" + jobMs + "ms-r" + run + "-" + nonce;
        Counters setup = new Counters();
        Counters c = new Counters();
        try {
            configure(setup, q, stripes);
            enqueue(setup, q, jobs, "job-");
            if (setup.failure() != null) {
                throw new IllegalStateException("setup: " + setup.failure());
            }
            RaftSample before = raftSample();
            CpuSample cpuBefore = cpu();
            Drain drain = new Drain(jobs);
            long limit = TimeUnit.SECONDS.toNanos(quick ? 60 : 120);
            long start = System.nanoTime();
            long deadline = start + limit;
            runThreads(workers, "worker", i -> {
                while (drain.completed.get() < jobs && System.nanoTime() < deadline) {
                    Resp r = get(c, "/api/v1/pop/queue/" + q + "?batch=1&wait=true&timeout=1000",
                            Duration.ofSeconds(30));
                    if (r.status != 200) {
                        continue;
                    }
                    for (Msg m : messages(r.body)) {
                        drain.delivered(m.transactionId);
                        if (jobMs > 0) {
                            Thread.sleep(jobMs);
                        }
                        if (ack(c, m)) {
                            drain.acked(m.transactionId);
                        } else {
                            drain.ackFailures.incrementAndGet();
                        }
                    }
                }
            });
            String err = c.failure();
            int done = drain.completed.get();
            if (done < jobs) {
                err = (err == null ? "" : err + "; ") + "drain incomplete after " + limit / 1_000_000_000 + " s: "
                        + done + "/" + jobs + " completed";
            }
            String check = drain.check(expectedIds("job-", jobs));
            if (check.startsWith("FAIL") && err == null) {
                err = check;
            }
            Resp left = get(c, "/api/v1/pop/queue/" + q + "?batch=1", Duration.ofSeconds(10));
            if (left.status != 204 && err == null) {
                err = "queue not empty after the drain (pop answered " + left.status + ")";
            }
            double seconds = (drain.lastCompletion.get() - start) / 1e9;
            record(key, "jobs/s", "jobs/s", run, err == null ? jobs / seconds : Double.NaN, err, c, check);
            record(key, "HTTP requests per job", "req/job", run,
                    err == null ? (double) c.requests.get() / jobs : Double.NaN, err, c, "");
            recordCpu(key, run, cpuBefore, jobs, "jobs");
            recordRaft(key, run, before, err);
        } catch (Exception e) {
            record(key, "jobs/s", "jobs/s", run, Double.NaN, describe(e), c, "");
        }
        safeDelete(q);
    }

    /** Lane 3: paced dispatch, one job per push, 16 workers, 10 ms jobs; scheduled-time latency. */
    private void pacedLane(int run) {
        int rate = 500;
        int workers = 16;
        int stripes = 16;
        int jobMs = 10;
        int seconds = quick ? 10 : 20;
        int maxInFlight = 64;
        String cond = rate + " jobs/s for " + seconds + " s, " + workers + " workers, " + jobMs + " ms jobs, stripes "
                + stripes;
        String key = "3 paced latency|" + cond;
        LOG.printf("[run %d] paced: %s%n", run, cond);
        String q = "bench-paced-r" + run + "-" + nonce;
        Counters setup = new Counters();
        Counters c = new Counters();
        Counters pushes = new Counters();
        int total = rate * seconds;
        long period = 1_000_000_000L / rate;
        AtomicLongArray scheduled = new AtomicLongArray(total);
        Histogram latency = new SynchronizedHistogram(TimeUnit.MINUTES.toMicros(5), 3);
        try {
            configure(setup, q, stripes);
            if (setup.failure() != null) {
                throw new IllegalStateException("setup: " + setup.failure());
            }
            Set<String> dispatched = ConcurrentHashMap.newKeySet();
            AtomicInteger shed = new AtomicInteger();
            AtomicInteger pushFailed = new AtomicInteger();
            AtomicInteger pacerDone = new AtomicInteger();
            Drain drain = new Drain(total);
            RaftSample before = raftSample();
            CpuSample cpuBefore = cpu();
            long limit = TimeUnit.SECONDS.toNanos(seconds + 30);
            long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
            Thread pacer = new Thread(() -> {
                Semaphore inFlight = new Semaphore(maxInFlight);
                for (int i = 0; i < total; i++) {
                    long at = start + i * period;
                    long wait = at - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    if (!inFlight.tryAcquire()) {
                        shed.incrementAndGet();
                        continue;
                    }
                    String id = "paced-" + i;
                    scheduled.set(i, at);
                    String body = "{\"items\":[{\"queue\":\"" + q + "\",\"transactionId\":\"" + id
                            + "\",\"payload\":" + payload(i) + "}]}";
                    pushes.requests.incrementAndGet();
                    http.sendAsync(request("/api/v1/push", body, Duration.ofSeconds(30)),
                            HttpResponse.BodyHandlers.ofString()).whenComplete((r, ex) -> {
                                inFlight.release();
                                if (ex != null) {
                                    pushes.error(describe(ex));
                                    pushFailed.incrementAndGet();
                                } else if (r.statusCode() != 201 || !r.body().contains("\"queued\"")) {
                                    pushes.status(r.statusCode(), r.body());
                                    pushFailed.incrementAndGet();
                                } else {
                                    pushes.ok.incrementAndGet();
                                    dispatched.add(id);
                                }
                            });
                }
                // let the last pushes finish before declaring the dispatch over
                try {
                    inFlight.acquire(maxInFlight);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                pacerDone.set(1);
            }, "pacer");
            long deadline = start + limit;
            ExecutorService pool = Executors.newFixedThreadPool(workers, daemon("paced-worker"));
            List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                futures.add(pool.submit(() -> {
                    while (System.nanoTime() < deadline
                            && (pacerDone.get() == 0 || drain.completed.get() < dispatched.size())) {
                        Resp r = get(c, "/api/v1/pop/queue/" + q + "?batch=1&wait=true&timeout=500",
                                Duration.ofSeconds(30));
                        if (r.status != 200) {
                            continue;
                        }
                        for (Msg m : messages(r.body)) {
                            drain.delivered(m.transactionId);
                            Thread.sleep(jobMs);
                            long end = System.nanoTime();
                            int i = Integer.parseInt(m.transactionId.substring("paced-".length()));
                            latency.recordValue(Math.max(0, (end - scheduled.get(i)) / 1_000));
                            if (ack(c, m)) {
                                drain.acked(m.transactionId);
                            } else {
                                drain.ackFailures.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            pacer.start();
            pacer.join();
            for (java.util.concurrent.Future<?> f : futures) {
                f.get();
            }
            pool.shutdownNow();
            double elapsed = (drain.lastCompletion.get() - start) / 1e9;
            c.merge(pushes);
            String err = c.failure();
            String check = drain.check(dispatched);
            if (check.startsWith("FAIL") && err == null) {
                err = check;
            }
            if (drain.completed.get() < dispatched.size() && err == null) {
                err = "incomplete: " + drain.completed.get() + "/" + dispatched.size() + " dispatched jobs completed";
            }
            check += ", shed " + shed.get() + ", push failures " + pushFailed.get();
            for (double p : new double[] {50, 95, 99}) {
                record(key, "dispatch→job end p" + (int) p, "ms", run,
                        err == null ? latency.getValueAtPercentile(p) / 1000.0 : Double.NaN, err, c,
                        p == 50 ? check : "");
            }
            record(key, "max", "ms", run, err == null ? latency.getMaxValue() / 1000.0 : Double.NaN, err, c, "");
            record(key, "shed (pacer found 64 pushes in flight)", "jobs", run, shed.get(), null, c, "");
            record(key, "achieved rate", "jobs/s", run,
                    err == null ? drain.completed.get() / elapsed : Double.NaN, err, c, "");
            recordCpu(key, run, cpuBefore, drain.completed.get(), "jobs");
            recordRaft(key, run, before, err);
        } catch (Exception e) {
            record(key, "dispatch→job end p50", "ms", run, Double.NaN, describe(e), c, "");
        }
        safeDelete(q);
    }

    /** Lane 5: single pop+ack latency on a wildcard pop with 10 and 100,000 partitions, 10 of them busy. */
    private void partitionLane(int run) {
        for (int partitions : new int[] {10, 100_000}) {
            int samples = quick ? 500 : 1_000;
            int busy = 10;
            String cond = partitions + " partitions (" + busy + " busy), sequential, " + samples + " samples";
            String key = "5 partition scale|" + cond;
            LOG.printf("[run %d] partitions: %s%n", run, cond);
            String q = "bench-parts-" + partitions + "-r" + run + "-" + nonce;
            Counters setup = new Counters();
            Counters c = new Counters();
            try {
                long t0 = System.nanoTime();
                // one message in each partition p-0 .. p-(n-1): creates them all
                for (int from = 0; from < partitions; from += 1000) {
                    int to = Math.min(partitions, from + 1000);
                    StringBuilder sb = new StringBuilder("{\"items\":[");
                    for (int p = from; p < to; p++) {
                        sb.append(p == from ? "" : ",").append("{\"queue\":\"").append(q)
                                .append("\",\"partition\":\"p-").append(p).append("\",\"payload\":{\"i\":")
                                .append(p).append("}}");
                    }
                    sb.append("]}");
                    push(setup, sb.toString(), to - from);
                }
                long t1 = System.nanoTime();
                // consume them all so every partition is idle (auto-ack, up to 1,000 partitions per pop)
                int drained = 0;
                long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
                while (System.nanoTime() < drainDeadline) {
                    Resp r = get(setup, "/api/v1/pop/queue/" + q + "?batch=1000&partitions=1000&autoAck=true",
                            Duration.ofSeconds(60));
                    if (r.status != 200) {
                        break;
                    }
                    drained += messages(r.body).size();
                }
                long t2 = System.nanoTime();
                if (drained != partitions) {
                    throw new IllegalStateException("setup: drained " + drained + " of " + partitions
                            + " set-up messages" + (setup.failure() == null ? "" : "; " + setup.failure()));
                }
                // keep 10 partitions busy: enough messages in p-0..p-9 for every sample
                int perBusy = samples / busy + 5;
                StringBuilder sb = new StringBuilder("{\"items\":[");
                for (int k = 0; k < perBusy * busy; k++) {
                    sb.append(k == 0 ? "" : ",").append("{\"queue\":\"").append(q).append("\",\"partition\":\"p-")
                            .append(k % busy).append("\",\"payload\":").append(payload(k)).append("}");
                }
                sb.append("]}");
                push(setup, sb.toString(), perBusy * busy);
                if (setup.failure() != null) {
                    throw new IllegalStateException("setup: " + setup.failure());
                }
                LOG.printf("  set-up: push %d partitions %.1f s, drain %.1f s%n", partitions, (t1 - t0) / 1e9,
                        (t2 - t1) / 1e9);
                Histogram popOnly = new Histogram(TimeUnit.MINUTES.toMicros(1), 3);
                Histogram popAck = new Histogram(TimeUnit.MINUTES.toMicros(1), 3);
                int empty = 0;
                Set<String> seen = new HashSet<>();
                int dup = 0;
                for (int s = 0; s < samples; s++) {
                    long a = System.nanoTime();
                    Resp r = get(c, "/api/v1/pop/queue/" + q + "?batch=1", Duration.ofSeconds(30));
                    long b = System.nanoTime();
                    if (r.status != 200) {
                        empty++;
                        continue;
                    }
                    for (Msg m : messages(r.body)) {
                        if (!seen.add(m.partitionId + "/" + m.transactionId)) {
                            dup++;
                        }
                        ack(c, m);
                    }
                    long e = System.nanoTime();
                    popOnly.recordValue((b - a) / 1000);
                    popAck.recordValue((e - a) / 1000);
                }
                String err = c.failure();
                if (empty > 0 && err == null) {
                    err = empty + " pops found nothing although 10 partitions were busy";
                }
                if (dup > 0 && err == null) {
                    err = dup + " messages delivered twice";
                }
                String check = "setup push " + fmt((t1 - t0) / 1e9) + " s, drain " + fmt((t2 - t1) / 1e9)
                        + " s, " + popAck.getTotalCount() + " samples, 0 empty, 0 dup";
                record(key, "pop+ack p50", "ms", run, err == null ? popAck.getValueAtPercentile(50) / 1000.0
                        : Double.NaN, err, c, check);
                record(key, "pop+ack p99", "ms", run, err == null ? popAck.getValueAtPercentile(99) / 1000.0
                        : Double.NaN, err, c, "");
                record(key, "pop p50", "ms", run, err == null ? popOnly.getValueAtPercentile(50) / 1000.0
                        : Double.NaN, err, c, "");
                record(key, "pop p99", "ms", run, err == null ? popOnly.getValueAtPercentile(99) / 1000.0
                        : Double.NaN, err, c, "");
            } catch (Exception e) {
                record(key, "pop+ack p50", "ms", run, Double.NaN, describe(e), c, "");
            }
            safeDelete(q);
        }
    }

    // ---------------------------------------------------------------- broker operations

    private void configure(Counters c, String q, int stripes) throws IOException, InterruptedException {
        Resp r = post(c, "/api/v1/configure", "{\"queue\":\"" + q + "\",\"options\":{\"stripes\":" + stripes + "}}",
                Duration.ofSeconds(30));
        if (r.status != 200) {
            throw new IllegalStateException("configure " + q + " answered " + r.status + ": " + abbrev(r.body));
        }
    }

    /** Pushes {@code jobs} messages with transactionIds prefix+i in batches of 500; throws unless all queued. */
    private void enqueue(Counters c, String q, int jobs, String prefix) throws IOException, InterruptedException {
        for (int from = 0; from < jobs; from += 500) {
            int n = Math.min(500, jobs - from);
            push(c, pushBody(q, null, n, from, prefix), n);
        }
    }

    private void push(Counters c, String body, int expected) throws IOException, InterruptedException {
        Resp r = post(c, "/api/v1/push", body, Duration.ofSeconds(60));
        if (r.status != 201) {
            throw new IllegalStateException("push answered " + r.status + ": " + abbrev(r.body));
        }
        int queued = count(r.body, "\"status\":\"queued\"");
        if (queued != expected) {
            throw new IllegalStateException("push queued " + queued + " of " + expected + ": " + abbrev(r.body));
        }
    }

    private boolean ack(Counters c, Msg m) throws IOException, InterruptedException {
        String body = "{\"transactionId\":\"" + m.transactionId + "\",\"partitionId\":\"" + m.partitionId
                + "\",\"leaseId\":\"" + m.leaseId + "\",\"status\":\"completed\"}";
        Resp r = post(c, "/api/v1/ack", body, Duration.ofSeconds(30));
        if (r.status != 200) {
            return false;
        }
        JsonNode answer = JSON.readTree(r.body);
        boolean ok = answer.isArray() && answer.size() == 1 && answer.get(0).path("success").asBoolean(false);
        if (!ok) {
            c.error("ack refused: " + abbrev(r.body));
        }
        return ok;
    }

    private void deleteQueue(Counters c, String q) throws IOException, InterruptedException {
        send(c, HttpRequest.newBuilder(URI.create(url + "/api/v1/resources/queues/" + q))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60)).DELETE().build());
    }

    private void safeDelete(String q) {
        try {
            deleteQueue(new Counters(), q);
        } catch (Exception e) {
            LOG.println("delete " + q + " failed: " + e);
        }
    }

    private static String pushBody(String q, String partition, int n, int firstId, String idPrefix) {
        StringBuilder sb = new StringBuilder(n * 320).append("{\"items\":[");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"queue\":\"").append(q).append('"');
            if (partition != null) {
                sb.append(",\"partition\":\"").append(partition).append('"');
            }
            if (idPrefix != null) {
                sb.append(",\"transactionId\":\"").append(idPrefix).append(firstId + i).append('"');
            }
            sb.append(",\"payload\":").append(payload(firstId + i)).append('}');
        }
        return sb.append("]}").toString();
    }

    /** A JSON payload of exactly {@link #PAYLOAD_BYTES} bytes: {"i":N,"pad":"xxx…"}. */
    static String payload(int i) {
        String head = "{\"i\":" + i + ",\"pad\":\"";
        return head + "x".repeat(PAYLOAD_BYTES - head.length() - 2) + "\"}";
    }

    private static List<Msg> messages(String body) {
        JsonNode root = JSON.readTree(body);
        List<Msg> out = new ArrayList<>();
        for (JsonNode m : root.path("messages")) {
            out.add(new Msg(m.path("transactionId").asString(""), m.path("partitionId").asString(""),
                    m.path("leaseId").asString(root.path("leaseId").asString(""))));
        }
        return out;
    }

    // ---------------------------------------------------------------- metrics from the broker

    private record RaftSample(Map<String, Double> values, String error) {
    }

    private RaftSample raftSample() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/actuator/prometheus"))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return new RaftSample(Map.of(), "/actuator/prometheus answered " + r.statusCode());
            }
            Map<String, Double> values = new LinkedHashMap<>();
            for (String line : r.body().split("\n")) {
                if (line.startsWith("#") || !line.contains("regina_raft")) {
                    continue;
                }
                int sp = line.lastIndexOf(' ');
                String name = line.substring(0, sp);
                int brace = name.indexOf('{');
                String bare = brace < 0 ? name : name.substring(0, brace);
                try {
                    values.merge(bare, Double.parseDouble(line.substring(sp + 1)), Double::sum);
                } catch (NumberFormatException ignored) {
                    // a sample we cannot read: skip it
                }
            }
            return new RaftSample(values, null);
        } catch (Exception e) {
            return new RaftSample(Map.of(), "/actuator/prometheus: " + describe(e));
        }
    }

    /** Picks the entries and commands counters among the regina_raft metrics: submitted first, else applied. */
    private static String[] raftCounters(Map<String, Double> values) {
        if (values.containsKey("regina_raft_entries_total") && values.containsKey("regina_raft_commands_total")) {
            return new String[] {"regina_raft_entries_total", "regina_raft_commands_total"};
        }
        for (String kind : new String[] {"submit", "appl"}) {
            String entries = null;
            String commands = null;
            for (String name : values.keySet()) {
                String n = name.toLowerCase(Locale.ROOT);
                if (!n.contains(kind) || n.contains("per_entry") || n.contains("max") || n.contains("nanos")
                        || n.contains("seconds")) {
                    continue;
                }
                if (n.contains("entries") && entries == null) {
                    entries = name;
                } else if (n.contains("commands") && commands == null) {
                    commands = name;
                }
            }
            if (entries != null && commands != null) {
                return new String[] {entries, commands};
            }
        }
        return null;
    }

    private void recordRaft(String key, int run, RaftSample before, String laneError) {
        RaftSample after = raftSample();
        String err = laneError != null ? "not measured: the lane failed"
                : before.error != null ? before.error : after.error;
        String[] names = err == null ? raftCounters(after.values) : null;
        if (err == null && names == null) {
            err = "no regina_raft entries/commands counters in /actuator/prometheus (found: "
                    + (after.values.isEmpty() ? "none" : String.join(", ", after.values.keySet())) + ")";
        }
        if (err != null) {
            record(key, "commands per Raft entry", "cmd/entry", run, Double.NaN, err, null, "");
            return;
        }
        double entries = after.values.get(names[0]) - before.values.getOrDefault(names[0], 0.0);
        double commands = after.values.get(names[1]) - before.values.getOrDefault(names[1], 0.0);
        String used = "Δ" + names[1] + " / Δ" + names[0];
        if (!notes.contains("- commands per Raft entry = " + used)) {
            notes.add("- commands per Raft entry = " + used);
        }
        record(key, "commands per Raft entry", "cmd/entry", run,
                entries > 0 ? commands / entries : Double.NaN, entries > 0 ? null : "no Raft entries counted", null,
                String.format(Locale.ROOT, "%.0f commands in %.0f entries", commands, entries));
        String flushes = after.values.keySet().stream().filter(n -> n.contains("flush") && n.endsWith("_total"))
                .findFirst().orElse(null);
        if (flushes != null) {
            double n = after.values.get(flushes) - before.values.getOrDefault(flushes, 0.0);
            String flushNote = "- commands per log flush = " + used.substring(0, used.indexOf(" / ")) + " / Δ" + flushes;
            if (!notes.contains(flushNote)) {
                notes.add(flushNote);
            }
            record(key, "commands per Raft log flush", "cmd/flush", run, n > 0 ? commands / n : Double.NaN,
                    n > 0 ? null : "no log flush counted", null, String.format(Locale.ROOT, "%.0f flushes", n));
        }
    }

    private record CpuSample(long ticks, long nanos) {
    }

    private CpuSample cpu() {
        if (brokerPid <= 0) {
            return null;
        }
        try {
            String stat = Files.readString(Path.of("/proc/" + brokerPid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // after the command: state is f[0]; utime is field 14 overall = f[11], stime f[12]
            return new CpuSample(Long.parseLong(f[11]) + Long.parseLong(f[12]), System.nanoTime());
        } catch (Exception e) {
            return null;
        }
    }

    private long rssMiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + brokerPid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (Exception ignored) {
            // no /proc: no figure
        }
        return -1;
    }

    private void recordCpu(String key, int run, CpuSample before, long units, String what) {
        CpuSample after = cpu();
        if (before == null || after == null || units <= 0) {
            return;
        }
        double cpuSeconds = (after.ticks - before.ticks) / (double) clkTck;
        record(key, "broker CPU s per 1,000 " + what, "s", run, cpuSeconds * 1000 / units, null, null,
                "broker RSS " + rssMiB() + " MiB after");
    }

    // ---------------------------------------------------------------- HTTP

    private record Resp(int status, String body) {
    }

    private record Msg(String transactionId, String partitionId, String leaseId) {
    }

    private HttpRequest request(String path, String body, Duration timeout) {
        return HttpRequest.newBuilder(URI.create(url + path)).timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
    }

    private Resp post(Counters c, String path, String body, Duration timeout) throws IOException, InterruptedException {
        return send(c, request(path, body, timeout));
    }

    private Resp get(Counters c, String path, Duration timeout) throws IOException, InterruptedException {
        return send(c, HttpRequest.newBuilder(URI.create(url + path)).timeout(timeout)
                .header("Content-Type", "application/json").GET().build());
    }

    private Resp send(Counters c, HttpRequest request) throws IOException, InterruptedException {
        c.requests.incrementAndGet();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 == 2) {
                c.ok.incrementAndGet();
            } else {
                c.status(r.statusCode(), r.body());
            }
            return new Resp(r.statusCode(), r.body());
        } catch (IOException e) {
            c.error(request.method() + " " + request.uri().getPath() + ": " + describe(e));
            return new Resp(-1, "");
        }
    }

    /** Request outcomes of one lane run: non-2xx answers and transport errors are kept with an example. */
    private static final class Counters {
        final AtomicLong requests = new AtomicLong();
        final AtomicLong ok = new AtomicLong();
        final AtomicLong non2xx = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final Map<Integer, AtomicLong> byStatus = new ConcurrentHashMap<>();
        volatile String firstProblem;

        void status(int status, String body) {
            non2xx.incrementAndGet();
            byStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
            if (firstProblem == null) {
                firstProblem = "HTTP " + status + ": " + abbrev(body);
            }
        }

        void error(String what) {
            errors.incrementAndGet();
            if (firstProblem == null) {
                firstProblem = what;
            }
        }

        void merge(Counters other) {
            requests.addAndGet(other.requests.get());
            ok.addAndGet(other.ok.get());
            non2xx.addAndGet(other.non2xx.get());
            errors.addAndGet(other.errors.get());
            other.byStatus.forEach((s, n) -> byStatus.computeIfAbsent(s, x -> new AtomicLong()).addAndGet(n.get()));
            if (firstProblem == null) {
                firstProblem = other.firstProblem;
            }
        }

        /** null when every request got a 2xx, else what went wrong (counts and the first example). */
        String failure() {
            if (non2xx.get() == 0 && errors.get() == 0) {
                return null;
            }
            return non2xx.get() + " non-2xx " + byStatus + ", " + errors.get() + " errors; first: " + firstProblem;
        }
    }

    /** What a drain delivered and completed, per job id. */
    private static final class Drain {
        final int expected;
        final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> acks = new ConcurrentHashMap<>();
        final AtomicInteger completed = new AtomicInteger();
        final AtomicInteger ackFailures = new AtomicInteger();
        final AtomicLong lastCompletion = new AtomicLong();

        Drain(int expected) {
            this.expected = expected;
        }

        void delivered(String id) {
            deliveries.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
        }

        void acked(String id) {
            acks.computeIfAbsent(id, k -> new AtomicInteger()).incrementAndGet();
            completed.incrementAndGet();
            lastCompletion.accumulateAndGet(System.nanoTime(), Math::max);
        }

        /** Exactly the expected set completed, each once; redeliveries are reported. */
        String check(Set<String> expectedIds) {
            Set<String> missing = new HashSet<>(expectedIds);
            missing.removeAll(acks.keySet());
            Set<String> unexpected = new HashSet<>(acks.keySet());
            unexpected.removeAll(expectedIds);
            long twice = acks.values().stream().filter(n -> n.get() > 1).count();
            long redelivered = deliveries.values().stream().filter(n -> n.get() > 1).count();
            boolean ok = missing.isEmpty() && unexpected.isEmpty() && twice == 0 && ackFailures.get() == 0;
            return (ok ? "exact set: " : "FAIL: ") + acks.size() + "/" + expectedIds.size() + " completed, "
                    + missing.size() + " missing, " + unexpected.size() + " unexpected, " + twice
                    + " completed twice, " + redelivered + " redelivered, " + ackFailures.get() + " ack failures";
        }
    }

    private static Set<String> expectedIds(String prefix, int n) {
        Set<String> ids = new HashSet<>(n * 2);
        for (int i = 0; i < n; i++) {
            ids.add(prefix + i);
        }
        return ids;
    }

    // ---------------------------------------------------------------- results

    private static final class RunResult {
        final int run;
        final double value;
        final String error;
        final long non2xx;
        final long requests;
        final String check;

        RunResult(int run, double value, String error, long non2xx, long requests, String check) {
            this.run = run;
            this.value = value;
            this.error = error;
            this.non2xx = non2xx;
            this.requests = requests;
            this.check = check;
        }
    }

    private static final class Row {
        final String lane;
        final String condition;
        final String metric;
        final String unit;
        final List<RunResult> runs = new ArrayList<>();

        Row(String lane, String condition, String metric, String unit) {
            this.lane = lane;
            this.condition = condition;
            this.metric = metric;
            this.unit = unit;
        }
    }

    private void record(String key, String metric, String unit, int run, double value, String error, Counters c,
                        String check) {
        String[] parts = key.split("\\|", 2);
        Row row = rows.computeIfAbsent(key + "|" + metric, k -> new Row(parts[0], parts[1], metric, unit));
        if (error == null && Double.isNaN(value)) {
            error = "no value";
        }
        row.runs.add(new RunResult(run, value, error, c == null ? 0 : c.non2xx.get(),
                c == null ? 0 : c.requests.get(), check));
        LOG.printf("  %-40s %s%n", metric, error == null ? fmt(value) + " " + unit : "ERROR " + error);
    }

    private String table() {
        StringBuilder sb = new StringBuilder();
        sb.append("| lane | conditions | metric | median | spread (min–max) | runs | requests | non-2xx | check |\n");
        sb.append("|---|---|---|---:|---|---:|---:|---:|---|\n");
        for (Row row : rows.values()) {
            List<String> errors = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            long non2xx = 0;
            long requests = 0;
            String check = "";
            for (RunResult r : row.runs) {
                if (r.error != null) {
                    errors.add("run " + r.run + ": " + r.error);
                } else {
                    values.add(r.value);
                }
                non2xx += r.non2xx;
                requests += r.requests;
                if (!r.check.isEmpty()) {
                    check = r.check;
                }
            }
            String median;
            String spread;
            if (!errors.isEmpty()) {
                median = "**ERROR**";
                spread = cell(String.join("; ", errors));
            } else {
                Collections.sort(values);
                median = fmt(median(values)) + " " + row.unit;
                spread = values.size() > 1 ? fmt(values.get(0)) + "–" + fmt(values.get(values.size() - 1)) : "—";
            }
            sb.append("| ").append(row.lane).append(" | ").append(row.condition).append(" | ").append(row.metric)
                    .append(" | ").append(median).append(" | ").append(spread).append(" | ").append(row.runs.size())
                    .append(" | ").append(requests == 0 ? "" : requests).append(" | ")
                    .append(requests == 0 ? "" : non2xx).append(" | ").append(cell(check)).append(" |\n");
        }
        return sb.toString();
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " / " + f[1] + " / " + f[2];
        } catch (Exception e) {
            return "unknown";
        }
    }

    private String conditions(Map<String, String> opts, String started, double minutes, String loadBefore,
                              String loadAfter) {
        StringBuilder sb = new StringBuilder();
        sb.append("## Regina benchmark — ").append(started).append("\n\n");
        sb.append("| condition | value |\n|---|---|\n");
        sb.append("| date | ").append(started).append(" |\n");
        sb.append("| CPUs (nproc) | ").append(opts.getOrDefault("nproc",
                Runtime.getRuntime().availableProcessors() + "")).append(" — broker and client share them |\n");
        sb.append("| Java | ").append(opts.getOrDefault("java", System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version"))).append(" |\n");
        sb.append("| broker | ").append(cell(opts.getOrDefault("broker", "(not given)"))).append(" |\n");
        sb.append("| durability | fsync on: Ratis default durable log flush; single Raft node, data in a fresh "
                + "temp dir |\n");
        sb.append("| payload | ").append(PAYLOAD_BYTES).append(" B JSON per message |\n");
        sb.append("| batch | push lane: 1 / 100 / 1,000 per request; jobs enqueued 500 per request; pops batch=1 "
                + "(long-poll), acks one per request |\n");
        sb.append("| workers | push: 16 producers; pool: 32; paced: 16; partition scale: 1 (sequential) |\n");
        sb.append("| stripes | pool: 32 and 1; paced: 16; partition scale: named partitions p-N |\n");
        sb.append("| client | java.net.http HttpClient, HTTP/1.1 keep-alive, thread pools, same machine |\n");
        sb.append("| host load average (1/5/15 min) | before ").append(loadBefore).append(", after ")
                .append(loadAfter).append(" — anything above the CPU count means other work shared the CPUs |\n");
        sb.append("| mode | ").append(quick ? "quick" : "full").append(", ").append(runs)
                .append(runs == 1 ? " run per lane (no spread)" : " runs per lane: median and min–max")
                .append(", ").append(fmt(minutes)).append(" min |\n");
        return sb.toString();
    }

    private String csv(String started) {
        StringBuilder sb = new StringBuilder("date,lane,conditions,metric,unit,run,value,error,requests,non2xx,check\n");
        for (Row row : rows.values()) {
            for (RunResult r : row.runs) {
                sb.append(csvCell(started)).append(',').append(csvCell(row.lane)).append(',')
                        .append(csvCell(row.condition)).append(',').append(csvCell(row.metric)).append(',')
                        .append(csvCell(row.unit)).append(',').append(r.run).append(',')
                        .append(r.error == null ? String.format(Locale.ROOT, "%.4f", r.value) : "").append(',')
                        .append(csvCell(r.error == null ? "" : r.error)).append(',').append(r.requests).append(',')
                        .append(r.non2xx).append(',').append(csvCell(r.check)).append('\n');
            }
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- small helpers

    private interface Body {
        void run(int index) throws Exception;
    }

    private static void runThreads(int n, String name, Body body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n, daemon(name));
        CountDownLatch go = new CountDownLatch(1);
        List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            futures.add(pool.submit(() -> {
                go.await();
                body.run(index);
                return null;
            }));
        }
        go.countDown();
        try {
            for (java.util.concurrent.Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
            n++;
        }
        return n;
    }

    private static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        double a = Math.abs(v);
        if (a >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String describe(Throwable e) {
        Throwable t = e;
        while ((t instanceof java.util.concurrent.ExecutionException || t instanceof java.util.concurrent.CompletionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    private static String abbrev(String s) {
        if (s == null) {
            return "";
        }
        String one = s.replace('\n', ' ');
        return one.length() > 200 ? one.substring(0, 200) + "…" : one;
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace('\n', ' ');
    }

    private static String csvCell(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + a);
            }
            String k = a.substring(2);
            int eq = k.indexOf('=');
            if (eq >= 0) {
                opts.put(k.substring(0, eq), k.substring(eq + 1));
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                opts.put(k, args[++i]);
            } else {
                opts.put(k, "true");
            }
        }
        return opts;
    }
}
