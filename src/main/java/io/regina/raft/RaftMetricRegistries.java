package io.regina.raft;

import org.apache.ratis.metrics.LongCounter;
import org.apache.ratis.metrics.MetricRegistries;
import org.apache.ratis.metrics.MetricRegistryInfo;
import org.apache.ratis.metrics.RatisMetricRegistry;
import org.apache.ratis.metrics.Timekeeper;
import org.apache.ratis.util.TimeDuration;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Ratis' metric registries as the broker keeps them: counters count, timers and gauges are not kept.
 * Ratis' default implementation times several steps of every log entry with a Dropwizard timer whose
 * exponentially decaying reservoir takes a lock and a logarithm per sample, on the event loop, the log
 * worker, the leader and the state machine updater: 1.7% of the broker's CPU in the paced lane's profile,
 * for figures nothing reads (the broker times its commits and applies itself, {@link RaftMetrics}). The
 * counters are read: the log worker's flushes and appends are the {@code regina.raft.log.*} meters.
 *
 * <p>Ratis loads it through the {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.apache.ratis.metrics.MetricRegistries}). A registry is created once per
 * component and member and may be asked for again; it goes when each creation was matched by a removal.
 */
public final class RaftMetricRegistries extends MetricRegistries {
    private final Map<MetricRegistryInfo, Shared> registries = new ConcurrentHashMap<>();

    @Override
    public void clear() {
        registries.clear();
    }

    @Override
    public RatisMetricRegistry create(MetricRegistryInfo info) {
        return registries.compute(info, (key, shared) -> shared == null
                ? new Shared(new Registry(key), 1) : new Shared(shared.registry(), shared.references() + 1)).registry();
    }

    @Override
    public boolean remove(MetricRegistryInfo info) {
        boolean[] removed = {false};
        registries.computeIfPresent(info, (key, shared) -> {
            removed[0] = true;
            return shared.references() <= 1 ? null : new Shared(shared.registry(), shared.references() - 1);
        });
        return removed[0];
    }

    @Override
    public Optional<RatisMetricRegistry> get(MetricRegistryInfo info) {
        Shared shared = registries.get(info);
        return shared == null ? Optional.empty() : Optional.of(shared.registry());
    }

    @Override
    public Set<MetricRegistryInfo> getMetricRegistryInfos() {
        return Set.copyOf(registries.keySet());
    }

    @Override
    public Collection<RatisMetricRegistry> getMetricRegistries() {
        return registries.values().stream().<RatisMetricRegistry>map(Shared::registry).toList();
    }

    /** Nothing is reported from these registries: there are no reporters to register. */
    @Override
    public void addReporterRegistration(Consumer<RatisMetricRegistry> reporterRegistration,
                                        Consumer<RatisMetricRegistry> stopReporter) {
    }

    @Override
    public void enableJmxReporter() {
    }

    @Override
    public void enableConsoleReporter(TimeDuration consoleReportRate) {
    }

    private record Shared(Registry registry, int references) {
    }

    /** One component's counters. */
    public static final class Registry implements RatisMetricRegistry {
        private static final Timekeeper.Context STOPPED = () -> 0L;
        private static final Timekeeper UNTIMED = () -> STOPPED;

        private final MetricRegistryInfo info;
        private final Map<String, Counter> counters = new ConcurrentHashMap<>();

        Registry(MetricRegistryInfo info) {
            this.info = info;
        }

        @Override
        public Timekeeper timer(String name) {
            return UNTIMED;
        }

        @Override
        public LongCounter counter(String name) {
            return counters.computeIfAbsent(name, n -> new Counter());
        }

        @Override
        public boolean remove(String name) {
            return counters.remove(name) != null;
        }

        @Override
        public <T> void gauge(String name, Supplier<Supplier<T>> gaugeSupplier) {
        }

        @Override
        public MetricRegistryInfo getMetricRegistryInfo() {
            return info;
        }

        /** The counter's count, or -1 when Ratis made no counter of that name here. */
        public long count(String name) {
            Counter counter = counters.get(name);
            return counter == null ? -1 : counter.getCount();
        }
    }

    private static final class Counter implements LongCounter {
        private final LongAdder count = new LongAdder();

        @Override
        public void inc(long n) {
            count.add(n);
        }

        @Override
        public void dec(long n) {
            count.add(-n);
        }

        @Override
        public long getCount() {
            return count.sum();
        }
    }
}
