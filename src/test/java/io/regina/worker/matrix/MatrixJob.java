package io.regina.worker.matrix;

import io.regina.worker.JobContext;
import io.regina.worker.JobHandler;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The failure matrix's job, run by real worker JVMs under {@code queue:work}: its payload chooses what it
 * does, and it appends one JSON line per event ({@code job_id, attempt, event, pid, at}) to the file named by
 * {@code MATRIX_LOG}, under a file lock, so the test reads what every attempt did from the jobs themselves.
 *
 * <p>Modes: {@code ok}; {@code throw} (every attempt); {@code throw-once}; {@code release-once};
 * {@code fail} ({@code fail()} from inside the job); {@code sleep} ({@code sleepMs}, ignoring interrupts like
 * a job stuck in a blocking call, which only a process kill ends); {@code memory} (allocates and keeps
 * {@code allocateMib}, then completes: past the heap it kills its worker).
 */
public final class MatrixJob implements JobHandler<MatrixJob.Payload> {
    /** Held for the life of the worker, so its resident size stays up after the job. */
    private static final List<byte[]> KEPT = new ArrayList<>();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    public record Payload(String id, String mode, long sleepMs, int allocateMib) {
    }

    @Override
    public void handle(Payload job, JobContext context) throws Exception {
        log(job.id(), context.attempt(), "started");
        switch (job.mode()) {
            case "ok" -> log(job.id(), context.attempt(), "completed");
            case "throw" -> threw(job, context);
            case "throw-once" -> {
                if (context.attempt() == 1) {
                    threw(job, context);
                }
                log(job.id(), context.attempt(), "completed");
            }
            case "release-once" -> {
                if (context.attempt() == 1) {
                    log(job.id(), context.attempt(), "released");
                    context.release(Duration.ZERO);
                    return;
                }
                log(job.id(), context.attempt(), "completed");
            }
            case "fail" -> {
                log(job.id(), context.attempt(), "failed_by_job");
                context.fail("the job failed itself");
            }
            case "sleep" -> {
                sleepThroughInterrupts(job.sleepMs());
                log(job.id(), context.attempt(), "completed");
            }
            case "memory" -> {
                for (int i = 0; i < job.allocateMib(); i++) {
                    byte[] mib = new byte[1 << 20];
                    java.util.Arrays.fill(mib, (byte) i); // touched, so it is resident
                    KEPT.add(mib);
                }
                sleepThroughInterrupts(job.sleepMs());
                log(job.id(), context.attempt(), "completed");
            }
            default -> throw new IllegalArgumentException("no mode " + job.mode());
        }
    }

    private static void threw(Payload job, JobContext context) {
        log(job.id(), context.attempt(), "threw");
        throw new IllegalStateException("matrix job " + job.id() + " throws (attempt " + context.attempt() + ")");
    }

    private static void sleepThroughInterrupts(long ms) {
        long until = System.nanoTime() + ms * 1_000_000;
        for (long left; (left = until - System.nanoTime()) > 0; ) {
            try {
                Thread.sleep(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                // like a blocking call that does not answer interrupts
            }
        }
    }

    static void log(String id, int attempt, String event) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("job_id", id);
        line.put("attempt", attempt);
        line.put("event", event);
        line.put("pid", ProcessHandle.current().pid());
        line.put("at", Instant.now().toString());
        byte[] bytes = (JSON.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8);
        try (FileChannel file = FileChannel.open(Path.of(System.getenv("MATRIX_LOG")), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.APPEND); FileLock lock = file.lock()) {
            file.write(ByteBuffer.wrap(bytes));
        } catch (IOException e) {
            throw new IllegalStateException("cannot write MATRIX_LOG", e);
        }
    }
}
