package io.regina.bench;

import java.io.IOException;

/** A measuring window on one broker: its CPU seconds and the client requests sent between open and close. */
final class Window {

    private final QueueSystem system;
    private final ProcessStats stats;
    private final double cpuAtOpen;
    private final long requestsAtOpen;
    private double cpuSeconds = Double.NaN;
    private double rssMiB = Double.NaN;

    Window(QueueSystem system, int clockTicks) throws IOException {
        this.system = system;
        this.stats = new ProcessStats(system.pid(), clockTicks);
        this.cpuAtOpen = stats.cpuSeconds();
        this.requestsAtOpen = system.requests();
    }

    /** Reads the broker's CPU and RSS at the end of the measured work. */
    void close() throws IOException {
        cpuSeconds = stats.cpuSeconds() - cpuAtOpen;
        rssMiB = stats.rssMiB();
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
