package io.regina.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Lane 2, paced latency: one job per push at a fixed rate while 16 workers run 10 ms jobs. Latency runs from
 * each job's scheduled dispatch time to its ack returned, so a slow push delays the clock of every job after
 * it (coordinated omission corrected). The pacer never blocks: when all pushers are busy it sheds the job and
 * counts it.
 */
final class PacedLane {

    static final String NAME = "Paced latency — one job per push, 16 workers × 10 ms jobs";

    private static final int WORKERS = 16;
    private static final int JOB_MILLIS = 10;
    private static final int PUSHERS = 32;

    private final Settings settings;
    private final Results results;
    private final SlowPushes slowPushes;

    PacedLane(Settings settings, Results results, SlowPushes slowPushes) {
        this.settings = settings;
        this.results = results;
        this.slowPushes = slowPushes;
    }

    void run(List<QueueSystem> systems) {
        warmUp(systems);
        for (int rate : settings.rates()) {
            String condition = String.format("%,d jobs/s for %d s, %d pushers", rate, settings.pacedSeconds(), PUSHERS);
            for (int run = 1; run <= settings.runs(); run++) {
                for (QueueSystem s : settings.order(systems, run)) {
                    Benchmark.LOG.printf("[paced run %d] %s: %s%n", run, s.name(), condition);
                    try {
                        measure(s, run, rate, settings.pacedSeconds(), condition, true);
                    } catch (Exception e) {
                        results.fail(NAME, condition, s.name(), run, Benchmark.describe(e));
                    }
                }
            }
        }
    }

    /** The most unrecorded passes over the lanes' rates a broker that still compiles gets before it is measured. */
    static final int MAX_WARM_UP_PASSES = 4;

    /**
     * Unrecorded paced runs, one at each of the lanes' rates, before any is measured: the pool lane's warm-up
     * runs pops and acks, not one-job pushes or long-polls woken by them, and a low rate wakes idle long-polls
     * where a high one finds the workers busy, so a JVM that has not run a rate's paths spends its measured
     * window compiling them (the first recorded rate spent 9-11% of Regina's CPU in the JIT after one run at the
     * highest). A broker with a JIT repeats the pass until one spent under
     * {@value PoolLane#WARM_COMPILER_SHARE} of its CPU compiling, at most {@value #MAX_WARM_UP_PASSES} passes.
     */
    private void warmUp(List<QueueSystem> systems) {
        int seconds = settings.quick() ? 5 : 10;
        for (QueueSystem s : systems) {
            ProcessStats stats = new ProcessStats(s.pid(), settings.clockTicks());
            for (int pass = 1; pass <= MAX_WARM_UP_PASSES; pass++) {
                try {
                    double cpu = stats.cpuSeconds();
                    double compiler = stats.compilerCpuSeconds();
                    for (int rate : settings.rates()) {
                        Benchmark.LOG.printf("[paced warm-up] %s pass %d: %,d jobs/s for %d s, not recorded%n",
                                s.name(), pass, rate, seconds);
                        measure(s, 0, rate, seconds, "warm-up", false);
                    }
                    double cpuPass = stats.cpuSeconds() - cpu;
                    double share = cpuPass <= 0 ? 0 : (stats.compilerCpuSeconds() - compiler) / cpuPass;
                    Benchmark.LOG.printf("paced warm-up %s pass %d: %.0f%% of the broker's CPU compiling%n",
                            s.name(), pass, 100 * share);
                    if (share < PoolLane.WARM_COMPILER_SHARE) {
                        break;
                    }
                } catch (Exception e) {
                    Benchmark.LOG.printf("paced warm-up %s failed: %s%n", s.name(), Benchmark.describe(e));
                    break;
                }
            }
        }
    }

    private void measure(QueueSystem s, int run, int rate, int pacedSeconds, String condition, boolean recorded)
            throws Exception {
        String q = settings.queue("paced", run);
        int total = rate * pacedSeconds;
        long period = TimeUnit.SECONDS.toNanos(1) / rate;
        JobSet set = new JobSet(q + "-", total);
        AtomicLongArray scheduled = new AtomicLongArray(total);
        AtomicIntegerArray pushed = new AtomicIntegerArray(total);
        Histogram latency = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(10), 3);
        Histogram pushLatency = new ConcurrentHistogram(TimeUnit.MINUTES.toMicros(10), 3);
        JobLedger ledger = new JobLedger(set, JOB_MILLIS,
                i -> latency.recordValue((System.nanoTime() - scheduled.get(i)) / 1_000));
        AtomicInteger shed = new AtomicInteger();
        SlowPushes.Run slow = (recorded ? slowPushes : SlowPushes.OFF).run(rate, s.name());
        AtomicInteger pushFailures = new AtomicInteger();
        List<QueueSystem.Pusher> pushers = new ArrayList<>();
        ThreadLocal<QueueSystem.Pusher> pusher = ThreadLocal.withInitial(() -> {
            try {
                QueueSystem.Pusher p = s.pusher(q);
                synchronized (pushers) {
                    pushers.add(p);
                }
                return p;
            } catch (Exception e) {
                throw new IllegalStateException("no pusher connection: " + Benchmark.describe(e), e);
            }
        });
        s.create(q, WORKERS);
        ExecutorService pool = Executors.newFixedThreadPool(PUSHERS, r -> {
            Thread t = new Thread(r, "pusher");
            t.setDaemon(true);
            return t;
        });
        try {
            connectAll(pool, pusher);
            QueueSystem.Workers workers = s.start(q, WORKERS, ledger);
            Window window;
            int dispatched;
            boolean done;
            long start;
            try {
                Semaphore slots = new Semaphore(PUSHERS);
                window = new Window(s, settings.clockTicks());
                start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
                for (int i = 0; i < total; i++) {
                    long at = start + i * period;
                    long wait = at - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    if (!slots.tryAcquire()) {
                        shed.incrementAndGet();
                        continue;
                    }
                    scheduled.set(i, at);
                    int index = i;
                    pool.execute(() -> {
                        try {
                            long began = System.nanoTime();
                            pusher.get().push(set, index);
                            long end = System.nanoTime();
                            pushLatency.recordValue((end - at) / 1_000);
                            slow.pushed(at, began, end);
                            pushed.set(index, 1);
                        } catch (Exception e) {
                            pushFailures.incrementAndGet();
                            ledger.failed("push: " + Benchmark.describe(e));
                        } finally {
                            slots.release();
                        }
                    });
                }
                slots.acquire(PUSHERS);
                dispatched = total - shed.get() - pushFailures.get();
                done = ledger.awaitCompleted(dispatched, System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
                window.close();
            } finally {
                workers.stop();
            }
            synchronized (pushers) {
                pushers.forEach(QueueSystem.Pusher::close);
            }
            String problem = ledger.problem(i -> pushed.get(i) == 1);
            if (!done) {
                problem = "incomplete 30 s after the last push: " + ledger.completed() + "/" + dispatched + " acked"
                        + (problem == null ? "" : "; " + problem);
            }
            if (!recorded) {
                Benchmark.LOG.printf("paced warm-up %s: p95 %.1f ms%s%n", s.name(), ms(latency, 95),
                        problem == null ? "" : " — " + problem);
                return;
            }
            slow.write();
            if (problem != null) {
                results.fail(NAME, condition, s.name(), run, problem);
                return;
            }
            double seconds = (ledger.lastAckNanos() - start) / 1e9;
            results.record(NAME, condition, s.name(), run, Metric.LATENCY_P50, ms(latency, 50));
            results.record(NAME, condition, s.name(), run, Metric.LATENCY_P90, ms(latency, 90));
            results.record(NAME, condition, s.name(), run, Metric.LATENCY_P95, ms(latency, 95));
            results.record(NAME, condition, s.name(), run, Metric.LATENCY_P99, ms(latency, 99));
            results.record(NAME, condition, s.name(), run, Metric.LATENCY_MAX, latency.getMaxValue() / 1000.0);
            results.record(NAME, condition, s.name(), run, Metric.PUSH_P50, ms(pushLatency, 50));
            results.record(NAME, condition, s.name(), run, Metric.PUSH_P95, ms(pushLatency, 95));
            results.record(NAME, condition, s.name(), run, Metric.PUSH_P99, ms(pushLatency, 99));
            results.record(NAME, condition, s.name(), run, Metric.ACHIEVED_RATE, dispatched / seconds);
            results.record(NAME, condition, s.name(), run, Metric.SHED, shed.get());
            results.record(NAME, condition, s.name(), run, Metric.CPU_PER_1000, window.cpuPer1000(dispatched));
            results.record(NAME, condition, s.name(), run, Metric.RSS, window.rssMiB());
            results.record(NAME, condition, s.name(), run, Metric.REQUESTS_PER_JOB, window.requestsPer(dispatched));
            window.recordWrites(results, NAME, condition, s.name(), run, dispatched);
            window.recordCompilerShare(results, NAME, condition, s.name(), run);
        } finally {
            pool.shutdownNow();
            s.delete(q);
        }
    }

    /** Gives every pusher thread its connection before the clock starts, so no push pays a connect. */
    private static void connectAll(ExecutorService pool, ThreadLocal<QueueSystem.Pusher> pusher)
            throws InterruptedException {
        java.util.concurrent.CountDownLatch all = new java.util.concurrent.CountDownLatch(PUSHERS);
        for (int i = 0; i < PUSHERS; i++) {
            pool.execute(() -> {
                pusher.get();
                all.countDown();
                try {
                    all.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        if (!all.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the pushers could not connect within 60 s");
        }
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1000.0;
    }
}
