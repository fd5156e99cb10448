package io.regina.bench;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The share of a broker's CPU its JIT compiler threads took over the last {@code windowNanos} of warm-up
 * rounds. One round is a fraction of a second and a C2 compilation can take longer than that, so one round
 * without compiling says little: a broker counts as warm when the rounds of a whole window compiled little.
 */
final class CompilerShare {

    private record Sample(long nanos, double cpuSeconds, double compilerSeconds) { }

    private final long windowNanos;
    private final Deque<Sample> samples = new ArrayDeque<>();

    CompilerShare(long windowNanos) {
        this.windowNanos = windowNanos;
    }

    /** Records the broker's cumulative CPU and compiler CPU at the end of a round (or at the start). */
    void sample(long nanos, double cpuSeconds, double compilerSeconds) {
        samples.addLast(new Sample(nanos, cpuSeconds, compilerSeconds));
        // drop the oldest sample while the next one is itself a whole window before this one
        while (samples.size() > 2) {
            Sample oldest = samples.removeFirst();
            if (nanos - samples.getFirst().nanos() < windowNanos) {
                samples.addFirst(oldest);
                break;
            }
        }
    }

    /** The compiler's share of the CPU over the window, or NaN until the samples span a whole window. */
    double overWindow() {
        if (samples.size() < 2) {
            return Double.NaN;
        }
        Sample first = samples.getFirst();
        Sample last = samples.getLast();
        if (last.nanos() - first.nanos() < windowNanos) {
            return Double.NaN;
        }
        double cpu = last.cpuSeconds() - first.cpuSeconds();
        return cpu <= 0 ? 0 : (last.compilerSeconds() - first.compilerSeconds()) / cpu;
    }
}
