package io.regina.dashboard;

import io.regina.queue.BrokerView;
import io.regina.queue.CommandBus;
import io.regina.queue.Views;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The overview's charts: a ring of samples taken every few seconds over the last 15 minutes, each
 * with the push / pop / ack rates (from {@link MessageCounters}) and the broker's depths and lag.
 * Memory is bounded by the window: at most {@code window / interval} samples are kept.
 */
@Component
public class Activity implements SmartLifecycle {
    static final Duration WINDOW = Duration.ofMinutes(15);
    private static final Logger LOG = LoggerFactory.getLogger(Activity.class);

    /**
     * One point of the charts: rates per second since the previous sample, depths at {@code at}.
     */
    public record Sample(long at, double pushed, double popped, double acked, long pending, long leased, long delayed,
                  long failed, long lag) { }

    /** The broker's totals at one moment. */
    public record Totals(int queues, long pending, long leased, long delayed, long failed, long lag) {

        static Totals of(BrokerView state) {
            long pending = 0;
            long leased = 0;
            long delayed = 0;
            List<Views.QueueSummary> queues = state.queues();
            for (Views.QueueSummary queue : queues) {
                pending += queue.depth().pending();
                leased += queue.depth().reserved();
                delayed += queue.depth().delayed();
            }
            long lag = 0;
            for (Views.GroupSummary group : state.groups()) {
                lag += group.lag();
            }
            return new Totals(queues.size(), pending, leased, delayed, state.failedJobs().size(), lag);
        }
    }

    private final CommandBus bus;
    private final MessageCounters counters;
    private final Duration interval;
    private final int capacity;
    private final ArrayDeque<Sample> ring = new ArrayDeque<>();
    private MessageCounters.Counts lastCounts;
    private long lastAt;
    private volatile Disposable timer;

    Activity(CommandBus bus, MessageCounters counters,
             @Value("${regina.dashboard.sample-interval-ms:5000}") long intervalMs) {
        this.bus = bus;
        this.counters = counters;
        this.interval = Duration.ofMillis(Math.max(100, intervalMs));
        this.capacity = (int) Math.max(2, Math.min(10_000, WINDOW.toMillis() / this.interval.toMillis()));
    }

    Duration interval() {
        return interval;
    }

    /** Takes one sample; the first one only sets the baseline of the rates. */
    synchronized void sample(long now) {
        MessageCounters.Counts counts = counters.read();
        Totals totals = bus.read(Totals::of);
        if (lastCounts != null && now > lastAt) {
            double seconds = (now - lastAt) / 1000.0;
            ring.addLast(new Sample(now, rate(counts.pushed(), lastCounts.pushed(), seconds),
                    rate(counts.popped(), lastCounts.popped(), seconds),
                    rate(counts.acked(), lastCounts.acked(), seconds),
                    totals.pending(), totals.leased(), totals.delayed(), totals.failed(), totals.lag()));
            while (ring.size() > capacity || (!ring.isEmpty() && ring.peekFirst().at() < now - WINDOW.toMillis())) {
                ring.removeFirst();
            }
        }
        lastCounts = counts;
        lastAt = now;
    }

    private static double rate(double now, double before, double seconds) {
        return Math.max(0, now - before) / seconds;
    }

    synchronized List<Sample> samples() {
        return new ArrayList<>(ring);
    }

    @Override
    public void start() {
        timer = Flux.interval(Duration.ZERO, interval, Schedulers.boundedElastic())
                .subscribe(tick -> {
                    try {
                        sample(System.currentTimeMillis());
                    } catch (RuntimeException e) {
                        LOG.warn("dashboard sample failed: {}", e.toString());
                    }
                });
    }

    @Override
    public void stop() {
        Disposable running = timer;
        timer = null;
        if (running != null) {
            running.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }
}
