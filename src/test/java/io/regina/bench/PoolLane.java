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

    /** The share of a warm-up round's broker CPU in JIT compiler threads under which the broker counts as warm. */
    static final double WARM_COMPILER_SHARE = 0.05;

    /**
     * Runs drains of empty jobs, unrecorded, for at least {@code minSeconds} and then until a round spent
     * less than {@value #WARM_COMPILER_SHARE} of the broker's CPU in JIT compiler threads (at most
     * {@code maxSeconds}): a broker still compiling is not the steady state a user runs, and its compiler
     * would be counted in the first lane's CPU per job. Brokers without a JIT stop at the minimum.
     */
    void warmUp(QueueSystem s, int minSeconds, int maxSeconds) {
        long start = System.nanoTime();
        ProcessStats stats = new ProcessStats(s.pid(), settings.clockTicks());
        int round = 0;
        double compilerShare;
        do {
            round++;
            try {
                double cpu = stats.cpuSeconds();
                double compiler = stats.compilerCpuSeconds();
                Drain d = drain(s, "warmup", round, 16, 0, settings.quick() ? 2_000 : 5_000);
                double cpuRound = stats.cpuSeconds() - cpu;
                compilerShare = cpuRound <= 0 ? 0 : (stats.compilerCpuSeconds() - compiler) / cpuRound;
                Benchmark.LOG.printf("warm-up %s round %d: %s jobs/s, %.0f%% of the broker's CPU compiling%s%n",
                        s.name(), round, Results.fmt(d.jobsPerSecond), compilerShare * 100,
                        d.problem == null ? "" : " — " + d.problem);
            } catch (Exception e) {
                Benchmark.LOG.printf("warm-up %s failed: %s%n", s.name(), Benchmark.describe(e));
                return;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (seconds >= maxSeconds || (seconds >= minSeconds && compilerShare < WARM_COMPILER_SHARE)) {
                return;
            }
        } while (true);
    }
}
