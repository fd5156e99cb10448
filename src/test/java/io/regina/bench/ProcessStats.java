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
