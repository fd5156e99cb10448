package io.regina.bench;

import java.io.IOException;

/** A measuring window on one broker: its CPU seconds and the client requests sent between open and close. */
final class Window {

    private final QueueSystem system;
    private final ProcessStats stats;
    private final double cpuAtOpen;
    private final double compilerAtOpen;
    private final long requestsAtOpen;
    private final long[] writesAtOpen;
    private long[] writes;
    private double cpuSeconds = Double.NaN;
    private double compilerSeconds = Double.NaN;
    private double rssMiB = Double.NaN;

    Window(QueueSystem system, int clockTicks) throws IOException {
        this.system = system;
        this.stats = new ProcessStats(system.pid(), clockTicks);
        // the counters first: reading them is a request to the broker, which close() leaves out too
        this.writesAtOpen = durableWrites(system);
        this.cpuAtOpen = stats.cpuSeconds();
        this.compilerAtOpen = stats.compilerCpuSeconds();
        this.requestsAtOpen = system.requests();
    }

    private static long[] durableWrites(QueueSystem system) throws IOException {
        try {
            return system.durableWrites();
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("reading " + system.name() + "'s durable write counters", e);
        }
    }

    /** Reads the broker's CPU and RSS at the end of the measured work. */
    void close() throws IOException {
        cpuSeconds = stats.cpuSeconds() - cpuAtOpen;
        compilerSeconds = stats.compilerCpuSeconds() - compilerAtOpen;
        rssMiB = stats.rssMiB();
        long[] now = writesAtOpen == null ? null : durableWrites(system);
        writes = now == null ? null : new long[] {now[0] - writesAtOpen[0], now[1] - writesAtOpen[1]};
    }

    /** Records the broker's log entries and fsyncs per unit, when it counts them. */
    void recordWrites(Results results, String lane, String condition, String system, int run, long units) {
        if (writes != null) {
            results.record(lane, condition, system, run, Metric.ENTRIES_PER_JOB, writes[0] / (double) units);
            results.record(lane, condition, system, run, Metric.FSYNCS_PER_JOB, writes[1] / (double) units);
        }
    }

    /**
     * Records the share of the window's broker CPU that its JIT compiler threads took, for a broker that has
     * them (a JVM): a lane measured while the broker still compiles counts the compiler in its CPU per job.
     */
    void recordCompilerShare(Results results, String lane, String condition, String system, int run) {
        if (compilerAtOpen > 0 && cpuSeconds > 0) {
            results.record(lane, condition, system, run, Metric.COMPILER_SHARE, 100 * compilerSeconds / cpuSeconds);
        }
    }

    double cpuPer1000(long units) {
        return cpuSeconds * 1000 / units;
    }

    double rssMiB() {
        return rssMiB;
    }

    /** Requests per unit sent since open; call after the workers stopped, when their counts are in. */
    double requestsPer(long units) {
        return (system.requests() - requestsAtOpen) / (double) units;
    }
}
