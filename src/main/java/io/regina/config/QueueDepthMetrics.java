package io.regina.config;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.regina.queue.CommandBus;
import io.regina.queue.Views;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code regina.queue.depth{queue, state=pending|reserved|delayed}} and {@code regina.failed.jobs},
 * refreshed from this node's state every few seconds (queues come and go, so one multi-gauge).
 */
@Component
class QueueDepthMetrics implements DisposableBean {
    private static final long REFRESH_SECONDS = 5;

    private final CommandBus bus;
    private final MultiGauge depths;
    private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "regina-queue-metrics");
        thread.setDaemon(true);
        return thread;
    });

    QueueDepthMetrics(CommandBus bus, MeterRegistry meters) {
        this.bus = bus;
        this.depths = MultiGauge.builder("regina.queue.depth").description("Messages per queue and state")
                .register(meters);
        Gauge.builder("regina.failed.jobs", bus, b -> b.read(s -> s.failedJobs().size()))
                .description("Rows in the failed-jobs table").register(meters);
        Gauge.builder("regina.failed.jobs.index", bus, b -> b.read(s -> s.failedJobs().indexBytes()))
                .description("Estimated heap of the failed-jobs word index").baseUnit("bytes").register(meters);
        refresher.scheduleWithFixedDelay(this::refresh, 1, REFRESH_SECONDS, TimeUnit.SECONDS);
    }

    void refresh() {
        List<Views.QueueSummary> queues = bus.read(state -> state.queues());
        List<MultiGauge.Row<?>> rows = new ArrayList<>(queues.size() * 3);
        for (Views.QueueSummary queue : queues) {
            rows.add(MultiGauge.Row.of(Tags.of("queue", queue.name(), "state", "pending"), queue.depth().pending()));
            rows.add(MultiGauge.Row.of(Tags.of("queue", queue.name(), "state", "reserved"), queue.depth().reserved()));
            rows.add(MultiGauge.Row.of(Tags.of("queue", queue.name(), "state", "delayed"), queue.depth().delayed()));
        }
        depths.register(rows, true);
    }

    @Override
    public void destroy() {
        refresher.shutdownNow();
    }
}
