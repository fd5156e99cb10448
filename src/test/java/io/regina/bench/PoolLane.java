package io.regina.bench;

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
     * Runs drains by 16 workers, unrecorded, in turn with each job length the lanes use (a lane of 10 ms jobs
     * sends fewer and smaller entries than one of empty jobs, through branches the JIT compiles only when they
     * run), for at least {@code minSeconds} and then until the rounds of the last {@value #WARM_WINDOW_SECONDS}
     * s spent less than {@value #WARM_COMPILER_SHARE} of the broker's CPU in JIT compiler threads (at most
     * {@code maxSeconds}): a broker still compiling is not the steady state a user runs, and its compiler would
     * be counted in the first lane's CPU per job. Brokers without a JIT stop at the minimum.
     */
    void warmUp(QueueSystem s, int minSeconds, int maxSeconds) {
        long start = System.nanoTime();
        ProcessStats stats = new ProcessStats(s.pid(), settings.clockTicks());
        CompilerShare window = new CompilerShare(TimeUnit.SECONDS.toNanos(WARM_WINDOW_SECONDS));
        List<Integer> jobMillis = settings.poolJobMillis();
        int round = 0;
        do {
            int jobMs = jobMillis.get(round % jobMillis.size());
            round++;
            try {
                double cpu = stats.cpuSeconds();
                double compiler = stats.compilerCpuSeconds();
                if (round == 1) {
                    window.sample(start, cpu, compiler);
                }
                Drain d = drain(s, "warmup", round, 16, jobMs, warmUpJobs(jobMs));
                double cpuRound = stats.cpuSeconds() - cpu;
                double compilerRound = stats.compilerCpuSeconds() - compiler;
                window.sample(System.nanoTime(), cpu + cpuRound, compiler + compilerRound);
                Benchmark.LOG.printf("warm-up %s round %d (%s): %s jobs/s, %.0f%% of the broker's CPU compiling, "
                                + "%s over the last %d s%s%n", s.name(), round, jobMs > 0 ? jobMs + " ms jobs" : "empty jobs",
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

    /** A warm-up round's jobs: about half a second's worth for 16 workers when jobs take time. */
    private int warmUpJobs(int jobMs) {
        int jobs = settings.quick() ? 2_000 : 5_000;
        return jobMs > 0 ? Math.min(jobs, 16 * 500 / jobMs) : jobs;
    }
}
