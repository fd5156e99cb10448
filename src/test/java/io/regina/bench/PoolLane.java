package io.regina.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Lane 1, worker pool: N jobs enqueued first, then W workers released; each pops one job, runs it (10 ms or
 * nothing), acks it. Jobs/s from the first delivery to the last returned ack.
 */
final class PoolLane {

    static final String NAME = "Worker pool — jobs enqueued first, then the workers released (one pop + one ack per job)";

    private final Settings settings;
    private final Results results;

    PoolLane(Settings settings, Results results) {
        this.settings = settings;
        this.results = results;
    }

    void run(List<QueueSystem> systems) {
        for (int workers : settings.poolWorkers()) {
            for (int jobMs : settings.poolJobMillis()) {
                int jobs = settings.poolJobs();
                String condition = workers + " workers × " + (jobMs > 0 ? jobMs + " ms" : "empty") + " jobs, "
                        + String.format("%,d", jobs) + " jobs";
                for (int run = 1; run <= settings.runs(); run++) {
                    for (QueueSystem s : settings.order(systems, run)) {
                        preRun(s, run, workers, jobMs, jobs);
                        Benchmark.LOG.printf("[pool run %d] %s: %s%n", run, s.name(), condition);
                        measure(s, run, workers, jobMs, jobs, condition);
                    }
                }
            }
        }
    }

    private void measure(QueueSystem s, int run, int workers, int jobMs, int jobs, String condition) {
        try {
            Drain d = drain(s, "pool", run, workers, jobMs, jobs);
            if (d.problem != null) {
                results.fail(NAME, condition, s.name(), run, d.problem);
                return;
            }
            results.record(NAME, condition, s.name(), run, Metric.JOBS_PER_SECOND, d.jobsPerSecond);
            results.record(NAME, condition, s.name(), run, Metric.CPU_PER_1000, d.window.cpuPer1000(jobs));
            results.record(NAME, condition, s.name(), run, Metric.RSS, d.window.rssMiB());
            results.record(NAME, condition, s.name(), run, Metric.REQUESTS_PER_JOB, d.window.requestsPer(jobs));
            d.window.recordWrites(results, NAME, condition, s.name(), run, jobs);
            d.window.recordCompilerShare(results, NAME, condition, s.name(), run);
        } catch (Exception e) {
            results.fail(NAME, condition, s.name(), run, Benchmark.describe(e));
        }
    }

    /**
     * An unrecorded drain of the lane's own shape (a quarter of its jobs, at least {@value #MIN_PRE_RUN_JOBS}) just
     * before each system's measured one: the warm-up's rounds leave a JIT that still compiles what a lane's mix of
     * types, and the other systems' runs in between, make new, and a measured window of 2-3 s at 8,000-12,000
     * jobs/s then spent up to 30% of Regina's CPU compiling (session 36). Every system gets it alike.
     */
    private void preRun(QueueSystem s, int run, int workers, int jobMs, int jobs) {
        int preJobs = Math.max(MIN_PRE_RUN_JOBS, jobs / 4);
        try {
            Drain d = drain(s, "prerun", run, workers, jobMs, preJobs);
            Benchmark.LOG.printf("[pool pre-run %d] %s: %s jobs/s, not recorded%s%n", run, s.name(),
                    Results.fmt(d.jobsPerSecond), d.problem == null ? "" : " — " + d.problem);
        } catch (Exception e) {
            Benchmark.LOG.printf("[pool pre-run %d] %s failed: %s%n", run, s.name(), Benchmark.describe(e));
        }
    }

    static final int MIN_PRE_RUN_JOBS = 2_000;

    /** The outcome of one drain: its rate, its window, and what went wrong (null when the exact set completed). */
    record Drain(double jobsPerSecond, Window window, String problem) {
    }

    /** Enqueues {@code jobs} jobs on a fresh queue, releases the workers, waits for every ack, checks the set. */
    Drain drain(QueueSystem s, String lane, int run, int workers, int jobMs, int jobs) throws Exception {
        String q = settings.queue(lane, run);
        JobSet set = new JobSet(q + "-", jobs);
        s.create(q, workers);
        try {
            s.enqueue(q, set);
            JobLedger ledger = new JobLedger(set, jobMs, i -> { });
            Window window = new Window(s, settings.clockTicks());
            // generous: a tenth of the slowest rate seen on these machines, plus start-up
            long limit = TimeUnit.SECONDS.toNanos(30 + jobs / 100);
            QueueSystem.Workers w = s.start(q, workers, ledger);
            boolean done;
            try {
                done = ledger.awaitCompleted(jobs, System.nanoTime() + limit);
                window.close();
            } finally {
                w.stop();
            }
            String problem = ledger.problem(i -> true);
            if (!done) {
                problem = "drain incomplete after " + TimeUnit.NANOSECONDS.toSeconds(limit) + " s: "
                        + ledger.completed() + "/" + jobs + " acked" + (problem == null ? "" : "; " + problem);
            }
            double seconds = (ledger.lastAckNanos() - ledger.firstDeliveryNanos()) / 1e9;
            return new Drain(jobs / seconds, window, problem);
        } finally {
            s.delete(q);
        }
    }

    /** The share of the broker's CPU in JIT compiler threads over {@link #WARM_WINDOW_SECONDS} under which it is warm. */
    static final double WARM_COMPILER_SHARE = 0.05;
    static final int WARM_WINDOW_SECONDS = 3;

    /**
     * Runs drains, unrecorded, in turn with each worker count and job length the lanes use (a lane of 10 ms jobs
     * sends fewer and smaller entries than one of empty jobs, and 128 workers on 128 stripes take branches 16
     * never do; the JIT compiles such branches only when they run, and compiled in a lane's few measured seconds
     * they were up to 29% of its CPU), for at least {@code minSeconds} and then until the rounds of the last
     * {@value #WARM_WINDOW_SECONDS} s spent less than {@value #WARM_COMPILER_SHARE} of the broker's CPU in JIT
     * compiler threads (at most {@code maxSeconds}): a broker still compiling is not the steady state a user
     * runs, and its compiler would be counted in the first lane's CPU per job. Brokers without a JIT stop at the
     * minimum.
     */
    void warmUp(QueueSystem s, int minSeconds, int maxSeconds) {
        long start = System.nanoTime();
        ProcessStats stats = new ProcessStats(s.pid(), settings.clockTicks());
        CompilerShare window = new CompilerShare(TimeUnit.SECONDS.toNanos(WARM_WINDOW_SECONDS));
        List<int[]> shapes = new ArrayList<>();
        for (int workers : settings.poolWorkers()) {
            for (int jobMs : settings.poolJobMillis()) {
                shapes.add(new int[] {workers, jobMs});
            }
        }
        int round = 0;
        do {
            int workers = shapes.get(round % shapes.size())[0];
            int jobMs = shapes.get(round % shapes.size())[1];
            round++;
            try {
                double cpu = stats.cpuSeconds();
                double compiler = stats.compilerCpuSeconds();
                if (round == 1) {
                    window.sample(start, cpu, compiler);
                }
                Drain d = drain(s, "warmup", round, workers, jobMs, warmUpJobs(workers, jobMs));
                double cpuRound = stats.cpuSeconds() - cpu;
                double compilerRound = stats.compilerCpuSeconds() - compiler;
                window.sample(System.nanoTime(), cpu + cpuRound, compiler + compilerRound);
                Benchmark.LOG.printf("warm-up %s round %d (%d workers, %s): %s jobs/s, %.0f%% of the broker's CPU "
                                + "compiling, %s over the last %d s%s%n", s.name(), round, workers,
                        jobMs > 0 ? jobMs + " ms jobs" : "empty jobs",
                        Results.fmt(d.jobsPerSecond), cpuRound <= 0 ? 0 : 100 * compilerRound / cpuRound,
                        Double.isNaN(window.overWindow()) ? "—" : String.format("%.0f%%", 100 * window.overWindow()),
                        WARM_WINDOW_SECONDS, d.problem == null ? "" : " — " + d.problem);
            } catch (Exception e) {
                Benchmark.LOG.printf("warm-up %s failed: %s%n", s.name(), Benchmark.describe(e));
                return;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (seconds >= maxSeconds || (seconds >= minSeconds && window.overWindow() < WARM_COMPILER_SHARE)) {
                return;
            }
        } while (true);
    }

    /** A warm-up round's jobs: at most about half a second's worth when jobs take time. */
    private int warmUpJobs(int workers, int jobMs) {
        int jobs = settings.quick() ? 2_000 : 5_000;
        return jobMs > 0 ? Math.min(jobs, workers * 500 / jobMs) : jobs;
    }
}
