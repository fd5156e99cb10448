package io.regina.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A broker's CPU time and resident memory from /proc, read at a measuring window's edges. */
final class ProcessStats {

    private final long pid;
    private final int clockTicksPerSecond;

    ProcessStats(long pid, int clockTicksPerSecond) {
        this.pid = pid;
        this.clockTicksPerSecond = clockTicksPerSecond;
    }

    /** utime + stime of the whole process (all threads), in seconds. */
    double cpuSeconds() throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        // fields after "(comm) ": state is [0]; utime and stime are fields 14 and 15 overall, [11] and [12] here
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / (double) clockTicksPerSecond;
    }

    /** utime + stime of the JVM's JIT compiler threads (none in a broker that is not a JVM), in seconds. */
    double compilerCpuSeconds() throws IOException {
        long ticks = 0;
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    if (!Files.readString(task.resolve("comm")).matches("C[12] CompilerThre.*\\s*")) {
                        continue;
                    }
                    String stat = Files.readString(task.resolve("stat"));
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                } catch (IOException gone) {
                    // a compiler thread that ended since the listing
                }
            }
        }
        return ticks / (double) clockTicksPerSecond;
    }

    /** VmRSS in MiB. */
    double rssMiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        throw new IOException("no VmRSS in /proc/" + pid + "/status");
    }
}
