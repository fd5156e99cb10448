package io.regina.worker.matrix;

import io.regina.testing.BrokerProcess;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code java -jar target/regina-*.jar queue:work …} in a child process, as an operator runs it, with
 * {@code MATRIX_LOG} for its jobs; its output (one event per line) goes to a file the lanes read.
 */
final class SupervisorProcess implements AutoCloseable {
    private static final Pattern WORKER_EVENT =
            Pattern.compile("^(\\S+) regina work: worker (\\d+) pid (\\d+) (.*)$");

    /** One line of the supervisor about one worker. */
    record WorkerEvent(Instant at, int slot, long pid, String what) {
    }

    private final Process process;
    private final Path output;

    private SupervisorProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    static SupervisorProcess start(Path output, Path matrixLog, List<String> options) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                "-XX:TieredStopAtLevel=1", "-jar", BrokerProcess.jar().toAbsolutePath().toString(), "queue:work"));
        command.addAll(options);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        builder.environment().put("MATRIX_LOG", matrixLog.toAbsolutePath().toString());
        return new SupervisorProcess(builder.start(), output);
    }

    List<String> lines() throws IOException {
        return Files.exists(output) ? Files.readAllLines(output) : List.of();
    }

    List<WorkerEvent> workerEvents() throws IOException {
        List<WorkerEvent> events = new ArrayList<>();
        for (String line : lines()) {
            Matcher m = WORKER_EVENT.matcher(line);
            if (m.matches()) {
                events.add(new WorkerEvent(Instant.parse(m.group(1)), Integer.parseInt(m.group(2)),
                        Long.parseLong(m.group(3)), m.group(4)));
            }
        }
        return events;
    }

    /** When the supervisor saw {@code pid} exit, or null if it has not. */
    Instant deathOf(long pid) {
        try {
            return workerEvents().stream().filter(e -> e.pid() == pid && e.what().startsWith("exited"))
                    .map(WorkerEvent::at).findFirst().orElse(null);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    long count(String fragment) throws IOException {
        return lines().stream().filter(line -> line.contains(fragment)).count();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** SIGTERM (a deploy); waits up to {@code limit} and returns the exit code, or -1 if it did not exit. */
    int deploy(Duration limit) throws InterruptedException {
        process.destroy();
        return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : -1;
    }

    /** SIGKILL to the supervisor alone: its workers lose their stdin, not a signal. */
    void killHard() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    String tail() {
        try {
            List<String> lines = lines();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no output)";
        }
    }

    /** Whatever is left: the supervisor and, through a deploy, its workers; SIGKILL if it does not go. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive() && deploy(Duration.ofSeconds(60)) < 0) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor();
        }
    }
}
