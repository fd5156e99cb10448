package io.regina.api;

import org.springframework.stereotype.Component;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The recent settle rate of a queue's consumer group, measured here because the domain keeps no clock:
 * each depth read leaves a sample (this node's monotonic time, the group's {@code settledSeq}) and the
 * rate is the rise of {@code settledSeq} over the samples of the last {@link #WINDOW_NANOS}. A node knows
 * the rate of a group only after it has been asked twice; a seek back (a fall) starts the samples over.
 */
@Component
class DrainRates {
    static final long WINDOW_NANOS = 60_000_000_000L;
    /** The shortest span a rate is measured over: two reads a millisecond apart say nothing. */
    static final long MIN_SPAN_NANOS = 1_000_000_000L;
    /** Reads closer together than this leave one sample, so a busy poller keeps at most 600 per group. */
    static final long SAMPLE_EVERY_NANOS = 100_000_000L;
    /** Queue-and-group pairs remembered; the least recently asked is forgotten first. */
    static final int MAX_KEYS = 10_000;

    private record Sample(long nanos, long settledSeq) { }

    private final LongSupplier clock;
    private final Map<String, Deque<Sample>> samples = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Deque<Sample>> eldest) {
            return size() > MAX_KEYS;
        }
    };

    DrainRates() {
        this(System::nanoTime);
    }

    DrainRates(LongSupplier clock) {
        this.clock = clock;
    }

    /** Records this reading and answers settled entries per second over the window, or null when unknown. */
    synchronized Double observe(String queue, String group, long settledSeq) {
        long now = clock.getAsLong();
        Deque<Sample> seen = samples.computeIfAbsent(queue + "\u0000" + group, key -> new ArrayDeque<>());
        if (!seen.isEmpty() && seen.peekLast().settledSeq() > settledSeq) {
            seen.clear();
        }
        while (!seen.isEmpty() && now - seen.peekFirst().nanos() > WINDOW_NANOS) {
            seen.pollFirst();
        }
        Sample oldest = seen.peekFirst();
        if (seen.isEmpty() || now - seen.peekLast().nanos() >= SAMPLE_EVERY_NANOS) {
            seen.addLast(new Sample(now, settledSeq));
        }
        if (oldest == null || now - oldest.nanos() < MIN_SPAN_NANOS) {
            return null;
        }
        return (settledSeq - oldest.settledSeq()) * 1e9 / (now - oldest.nanos());
    }
}
