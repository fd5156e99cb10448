package io.regina.testing;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The real broker jar in a child process, killed for real with SIGKILL. Extra arguments starting
 * with {@code --} go to the broker, other {@code -} ones to its JVM.
 */
public final class BrokerProcess implements AutoCloseable {
    private final Path dataDir;
    private final String httpHost;
    private final List<String> launchPrefix;
    private final int httpPort;
    private final int raftPort;
    private final List<String> extraArgs;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;

    public BrokerProcess(Path dataDir, int httpPort, int raftPort, String... extraArgs) {
        this(dataDir, "127.0.0.1", List.of(), httpPort, raftPort, extraArgs);
    }

    /**
     * A broker reached on {@code httpHost} and launched under {@code launchPrefix} (as {@code ip netns exec
     * ns1}: a prefix that execs its command, so {@link #pid()} is still the JVM's).
     */
    public BrokerProcess(Path dataDir, String httpHost, List<String> launchPrefix, int httpPort, int raftPort,
            String... extraArgs) {
        this.dataDir = dataDir;
        this.httpHost = httpHost;
        this.launchPrefix = List.copyOf(launchPrefix);
        this.httpPort = httpPort;
        this.raftPort = raftPort;
        this.extraArgs = List.of(extraArgs);
        this.log = dataDir.resolveSibling(dataDir.getFileName() + "-" + httpPort + ".log");
    }

    public static Path jar() {
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            return files.filter(p -> p.getFileName().toString().matches("regina-.*\\.jar"))
                    .filter(p -> !p.getFileName().toString().endsWith("-plain.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException("target/regina-*.jar is missing: run mvn package"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public String baseUrl() {
        return "http://" + httpHost + ":" + httpPort;
    }

    /** Launches the process (again, after a stop or kill: same data and ports) and waits until it serves. */
    public BrokerProcess start() throws IOException {
        launch();
        awaitHealthy(Duration.ofSeconds(180));
        return this;
    }

    /** Starts the process without waiting: cluster members wait for each other before serving. */
    public BrokerProcess launch() throws IOException {
        List<String> jvmOptions = extraArgs.stream().filter(a -> a.startsWith("-") && !a.startsWith("--")).toList();
        List<String> command = new ArrayList<>(launchPrefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Tests start several JVMs on two cores: C1 alone gets them serving sooner. Benchmarks pass their own.
        command.addAll(jvmOptions.isEmpty() ? List.of("-Xmx512m", "-XX:TieredStopAtLevel=1") : jvmOptions);
        command.addAll(List.of("-jar", jar().toAbsolutePath().toString(),
                "--server.port=" + httpPort,
                "--regina.data-dir=" + dataDir.toAbsolutePath(),
                "--regina.raft-port=" + raftPort));
        command.addAll(extraArgs.stream().filter(a -> a.startsWith("--")).toList());
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return this;
    }

    /** Waits until /health answers 200, failing at once if the process exits, and with its log tail on timeout. */
    public void awaitHealthy(Duration timeout) {
        await(timeout, "broker " + baseUrl() + " healthy", () -> {
            if (!process.isAlive()) {
                throw new AssertionError("broker exited with " + process.exitValue() + ":\n" + logTail());
            }
            return send("GET", "/health", null, Duration.ofSeconds(2)).statusCode();
        }, status -> status == 200);
    }

    /** {@link Eventually#await(Duration, String, Eventually.Probe, Predicate)}, with this log tail on failure. */
    public <T> T await(Duration timeout, String description, Eventually.Probe<T> probe,
            Predicate<? super T> done) {
        try {
            return Eventually.await(timeout, description, probe, done);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + logTail(), e);
        }
    }

    /** One JSON request to this broker, answered within 30 s. */
    public HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        return send(method, path, body, Duration.ofSeconds(30));
    }

    public HttpResponse<String> send(String method, String path, String body, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(timeout)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The operating-system process id, while it runs (a restart gets a new one). */
    public long pid() {
        if (process == null) {
            throw new IllegalStateException("broker " + baseUrl() + " was never launched");
        }
        return process.pid();
    }

    /** SIGKILL to this process id: no shutdown hook, no snapshot on stop, whatever was in flight is cut. */
    public void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    /** Waits for the process to exit by itself; its exit code, or an AssertionError with the log tail. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (process == null || !process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("broker " + baseUrl() + " still running after " + timeout + ":\n" + logTail());
        }
        return process.exitValue();
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }

    public File logFile() {
        return log.toFile();
    }

    /** SIGTERM to this process id, and wait: a graceful stop (snapshot on stop); SIGKILL after 20 s. */
    public void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /** SIGSTOP to this process id: it keeps its sockets and its state but runs nothing until {@link #thaw()}. */
    public void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT to this process id after {@link #freeze()}. */
    public void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        int exit = new ProcessBuilder("kill", "-" + name, Long.toString(pid())).inheritIO().start().waitFor();
        if (exit != 0) {
            throw new IllegalStateException("kill -" + name + " " + pid() + " exited with " + exit);
        }
    }

    /** This node's data directory (its Raft log and snapshots under {@code raft/}). */
    public Path dataDir() {
        return dataDir;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
