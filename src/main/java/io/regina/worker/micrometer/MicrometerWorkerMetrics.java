package io.regina.worker.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.regina.worker.Verdict;
import io.regina.worker.WorkerMetrics;

import java.time.Duration;
import java.util.Locale;

/**
 * {@link WorkerMetrics} as Micrometer meters, for applications that have Micrometer:
 * {@code regina.worker.jobs} (a timer per {@code kind} and {@code verdict}: complete, retry, release, fail),
 * {@code regina.worker.lease.renewals} (per {@code outcome}: renewed, failed) and
 * {@code regina.worker.handbacks} (jobs handed back uncharged at a stop).
 */
public final class MicrometerWorkerMetrics implements WorkerMetrics {
    private final MeterRegistry registry;

    public MicrometerWorkerMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void jobFinished(String kind, Verdict verdict, Duration took) {
        Timer.builder("regina.worker.jobs").description("jobs a worker ran, by how they ended")
                .tag("kind", kind).tag("verdict", verdict.getClass().getSimpleName().toLowerCase(Locale.ROOT))
                .register(registry).record(took);
    }

    @Override
    public void leaseRenewed(boolean success) {
        Counter.builder("regina.worker.lease.renewals").tag("outcome", success ? "renewed" : "failed")
                .register(registry).increment();
    }

    @Override
    public void handedBack(int jobs) {
        Counter.builder("regina.worker.handbacks").description("prefetched jobs handed back uncharged at a stop")
                .register(registry).increment(jobs);
    }
}
