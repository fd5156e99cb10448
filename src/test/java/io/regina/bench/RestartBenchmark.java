package io.regina.bench;

import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Restart time with many messages stored: fills a broker with N messages (1,000 per request, 256-byte
 * payloads), then restarts it twice on the same data — after a graceful stop (snapshot on shutdown)
 * and after SIGKILL (newest snapshot plus log replay) — and prints the time to a healthy node and
 * that every message is still there. Run: {@code bench/restart.sh [messages]}.
 */
public final class RestartBenchmark {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private RestartBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int messages = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Path dir = Files.createTempDirectory("regina-restart");
        Path data = dir.resolve("data");
        int httpPort = FreePorts.next();
        int raftPort = FreePorts.next();
        String heap = System.getProperty("broker.heap", "-Xmx2g");

        BrokerProcess broker = new BrokerProcess(data, httpPort, raftPort, heap).start();
        long fillStart = System.nanoTime();
        fill(broker.baseUrl(), messages);
        double fillSeconds = (System.nanoTime() - fillStart) / 1e9;
        long size = size(broker.baseUrl());
        broker.close();

        long start = System.nanoTime();
        BrokerProcess graceful = new BrokerProcess(data, httpPort, raftPort, heap).start();
        double gracefulSeconds = (System.nanoTime() - start) / 1e9;
        long afterGraceful = size(graceful.baseUrl());
        push(graceful.baseUrl(), 1000, "after-restart");
        graceful.kill();

        start = System.nanoTime();
        BrokerProcess killed = new BrokerProcess(data, httpPort, raftPort, heap).start();
        double killedSeconds = (System.nanoTime() - start) / 1e9;
        long afterKill = size(killed.baseUrl());
        killed.close();

        System.out.printf("%n## Restart with stored messages (%s, %d cores, Java %s, fsync on, broker %s)%n%n",
                java.time.LocalDate.now(), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), heap);
        System.out.println("| step | messages stored | seconds |");
        System.out.println("|---|---:|---:|");
        System.out.printf("| fill (1,000 per request, 256 B, 8 producers) | %,d | %.1f (%,.0f msg/s) |%n",
                size, fillSeconds, messages / fillSeconds);
        System.out.printf("| start after graceful stop (snapshot) | %,d | %.1f |%n", afterGraceful, gracefulSeconds);
        System.out.printf("| start after SIGKILL (snapshot + log tail) | %,d | %.1f |%n", afterKill, killedSeconds);
        if (afterGraceful != messages || afterKill != messages + 1000) {
            System.out.println("MISMATCH: expected " + messages + " then " + (messages + 1000));
            System.exit(1);
        }
    }

    private static void fill(String base, int messages) throws Exception {
        ExecutorService producers = Executors.newFixedThreadPool(8);
        AtomicLong next = new AtomicLong();
        List<Future<?>> done = new ArrayList<>();
        for (int p = 0; p < 8; p++) {
            done.add(producers.submit(() -> {
                while (next.getAndAdd(1000) < messages) {
                    push(base, 1000, "fill");
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        producers.shutdown();
    }

    private static void push(String base, int count, String tag) throws Exception {
        String payload = "\"" + "x".repeat(254) + "\"";
        StringBuilder body = new StringBuilder("{\"items\":[");
        for (int i = 0; i < count; i++) {
            body.append(i == 0 ? "" : ",").append("{\"queue\":\"restart\",\"payload\":").append(payload).append('}');
        }
        body.append("]}");
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/push"))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 201) {
            throw new IllegalStateException(tag + " push failed: " + response.statusCode() + " " + response.body());
        }
    }

    private static long size(String base) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create(base + "/api/v1/queues/restart/size")).build(), HttpResponse.BodyHandlers.ofString());
        String body = response.body();
        int at = body.indexOf("\"size\":") + 7;
        int end = at;
        while (end < body.length() && Character.isDigit(body.charAt(end))) {
            end++;
        }
        return Long.parseLong(body.substring(at, end));
    }
}
