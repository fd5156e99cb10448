package io.regina.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The paced lane's pushes slower than a threshold ({@code --slow-push-ms}), one line each in {@code
 * slow-pushes.txt}: when the push was scheduled (wall clock, to set beside the broker's GC and Raft logs), the
 * rate, the system, how late the pusher thread began it and how long its request took, in microseconds. A push's
 * latency alone does not say whether the broker or the load generator was slow; this does.
 */
final class SlowPushes {

    static final SlowPushes OFF = new SlowPushes(null, 0);

    private final Path file;
    private final long thresholdNanos;
    private final long wallMinusNanoMillis = System.currentTimeMillis() - System.nanoTime() / 1_000_000;

    SlowPushes(Path file, long thresholdMillis) {
        this.file = file;
        this.thresholdNanos = TimeUnit.MILLISECONDS.toNanos(thresholdMillis);
    }

    /** A measured run's record, kept in memory until {@link Run#write}. */
    final class Run {
        private final Queue<String> lines = new ConcurrentLinkedQueue<>();
        private final String label;

        private Run(int rate, String system) {
            this.label = rate + " " + system.replace(' ', '_');
        }

        /** A push scheduled at {@code at}, begun at {@code began}, answered at {@code end} (all nanoTime). */
        void pushed(long at, long began, long end) {
            if (file != null && end - at >= thresholdNanos) {
                lines.add(Instant.ofEpochMilli(wallMinusNanoMillis + at / 1_000_000) + " " + label + " "
                        + (began - at) / 1_000 + " " + (end - began) / 1_000);
            }
        }

        void write() throws IOException {
            if (file != null && !lines.isEmpty()) {
                Files.write(file, List.copyOf(lines), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        }
    }

    Run run(int rate, String system) {
        return new Run(rate, system);
    }
}
