package io.regina.bench;

import io.regina.worker.JobContext;
import io.regina.worker.JobHandler;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The worker benchmark's job, run by {@code queue:work}'s worker JVMs: sleeps {@code sleepMs} (0: an
 * empty job) and appends {@code id dispatchedAtMicros completedAtMicros} to its own process's file under
 * {@code $BENCH_JOBS_DIR}, so {@link WorkerBenchmark} counts completions and latencies without a lock.
 */
public final class BenchJob implements JobHandler<BenchJob.Payload> {
    private static final BufferedWriter OUT = open();

    public record Payload(long id, long sleepMs, long dispatchedAtMicros) {
    }

    @Override
    public void handle(Payload job, JobContext context) throws Exception {
        if (job.sleepMs() > 0) {
            Thread.sleep(job.sleepMs());
        }
        long completed = WorkerBenchmark.micros();
        synchronized (OUT) {
            OUT.write(job.id() + " " + job.dispatchedAtMicros() + " " + completed + "\n");
            OUT.flush();
        }
    }

    private static BufferedWriter open() {
        try {
            Path dir = Path.of(System.getenv("BENCH_JOBS_DIR"));
            return Files.newBufferedWriter(dir.resolve(ProcessHandle.current().pid() + ".log"), StandardCharsets.US_ASCII,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
