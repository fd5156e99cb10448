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
import java.util.stream.Stream;

/**
 * The real broker jar in a child process, killed for real with SIGKILL. Extra arguments starting
 * with {@code --} go to the broker, other {@code -} ones to its JVM.
 */
public final class BrokerProcess implements AutoCloseable {
    private final Path dataDir;
    private final int httpPort;
    private final int raftPort;
    private final List<String> extraArgs;
    private final Path log;
    private Process process;

    public BrokerProcess(Path dataDir, int httpPort, int raftPort, String... extraArgs) {
        this.dataDir = dataDir;
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
        return "http://127.0.0.1:" + httpPort;
    }

    public BrokerProcess start() throws IOException, InterruptedException {
        launch();
        awaitHealthy(Duration.ofSeconds(180));
        return this;
    }

    /** Starts the process without waiting: cluster members wait for each other before serving. */
    public BrokerProcess launch() throws IOException {
        List<String> jvmOptions = extraArgs.stream().filter(a -> a.startsWith("-") && !a.startsWith("--")).toList();
        List<String> command = new ArrayList<>();
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

    /** Waits until /health answers 200, failing with the process log when it does not. */
    public void awaitHealthy(Duration timeout) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("broker exited with " + process.exitValue() + ":\n" + logTail());
            }
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/health"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("broker not healthy after " + timeout + ":\n" + logTail());
    }

    /** SIGKILL: no shutdown hook, no snapshot on stop, whatever was in flight is cut. */
    public void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor();
        }
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

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
