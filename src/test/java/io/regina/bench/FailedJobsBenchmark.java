package io.regina.bench;

import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The failed-jobs table at scale (issue 3): fills N failed rows over 4 queues (256-byte payloads),
 * then times the first page, a queue-filtered page, the count, a text search, and retry-all, with the
 * pop latency of another queue while retry-all runs. Run: {@code bench/failed-jobs.sh [rows]}.
 */
public final class FailedJobsBenchmark {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private FailedJobsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        String heap = System.getProperty("broker.heap", "-Xmx4g");
        BrokerProcess broker = new BrokerProcess(Files.createTempDirectory("regina-failed").resolve("data"),
                FreePorts.next(), FreePorts.next(), heap).start();
        try {
            String base = broker.baseUrl();
            long start = System.nanoTime();
            fill(base, rows);
            double fillSeconds = seconds(start);
            for (int i = 0; i < 2000; i++) {
                send(base, "POST", "/api/v1/push", "{\"items\":[{\"queue\":\"probe\",\"payload\":" + i + "}]}");
            }
            double firstPage = medianMs(base, "/api/v1/failed-jobs?limit=50");
            double queuePage = medianMs(base, "/api/v1/failed-jobs?limit=50&queue=q1");
            double count = medianMs(base, "/api/v1/failed-jobs?limit=1");
            long total = JSON.readTree(send(base, "GET", "/api/v1/failed-jobs?limit=1", null).body()).get("total")
                    .asLong();
            double deepPage = medianMs(base, "/api/v1/failed-jobs?limit=50&cursor="
                    + JSON.readTree(send(base, "GET", "/api/v1/failed-jobs?limit=1000&queue=q2", null).body())
                    .get("nextCursor").asString());
            long searchStart = System.nanoTime();
            JsonNode search = JSON.readTree(send(base, "GET", "/api/v1/failed-jobs?limit=50&q=error-42", null).body());
            double searchMs = seconds(searchStart) * 1000;

            List<Long> popMicros = Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean retrying = new AtomicBoolean(true);
            ExecutorService prober = Executors.newSingleThreadExecutor();
            Future<?> probing = prober.submit(() -> {
                while (retrying.get()) {
                    long t = System.nanoTime();
                    send(base, "GET", "/api/v1/pop/queue/probe?autoAck=true", null);
                    popMicros.add((System.nanoTime() - t) / 1000);
                    Thread.sleep(5);
                }
                return null;
            });
            long retryStart = System.nanoTime();
            JsonNode retried = JSON.readTree(send(base, "POST", "/api/v1/failed-jobs/retry", "{\"all\":true}").body());
            double retrySeconds = seconds(retryStart);
            retrying.set(false);
            probing.get();
            prober.shutdown();
            Collections.sort(popMicros);

            System.out.printf("%n## Failed jobs at %,d rows (%s, %d cores, Java %s, fsync on, broker %s)%n%n", total,
                    java.time.LocalDate.now(), Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"), heap);
            System.out.println("| operation | result |");
            System.out.println("|---|---:|");
            System.out.printf("| fill (push 1,000 + dlq-ack 1,000 per step, 4 queues) | %.1f s |%n", fillSeconds);
            System.out.printf("| first page (50 rows, newest first, with total) | %.2f ms |%n", firstPage);
            System.out.printf("| queue-filtered page (50 rows) | %.2f ms |%n", queuePage);
            System.out.printf("| count (limit=1, total) | %.2f ms |%n", count);
            System.out.printf("| page 21 by cursor (queue q2) | %.2f ms |%n", deepPage);
            System.out.printf("| text search q=error-42 (bounded scan, truncated=%s) | %.0f ms |%n",
                    search.has("searchTruncated"), searchMs);
            System.out.printf("| retry all (%,d rows in steps of 10,000) | %.1f s (%,.0f rows/s) |%n",
                    retried.get("retried").asLong(), retrySeconds, retried.get("retried").asLong() / retrySeconds);
            System.out.printf("| pop latency on another queue during retry-all: p50 / p99 / max (%d pops) | "
                    + "%.1f / %.1f / %.1f ms |%n", popMicros.size(), pct(popMicros, 0.5), pct(popMicros, 0.99),
                    popMicros.isEmpty() ? 0 : popMicros.get(popMicros.size() - 1) / 1000.0);
            if (retried.get("retried").asLong() != rows || total != rows) {
                System.out.println("MISMATCH: expected " + rows + " rows, table had " + total + ", retried "
                        + retried.get("retried"));
                System.exit(1);
            }
        } finally {
            broker.close();
        }
    }

    private static void fill(String base, int rows) throws Exception {
        ExecutorService workers = Executors.newFixedThreadPool(4);
        AtomicLong next = new AtomicLong();
        String payload = "\"" + "p".repeat(254) + "\"";
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            done.add(workers.submit(() -> {
                long from;
                while ((from = next.getAndAdd(1000)) < rows) {
                    String queue = "q" + (from / 1000 % 4);
                    StringBuilder push = new StringBuilder("{\"items\":[");
                    for (int i = 0; i < 1000; i++) {
                        push.append(i == 0 ? "" : ",").append("{\"queue\":\"").append(queue).append("\",\"payload\":")
                                .append(payload).append('}');
                    }
                    JsonNode pushed = JSON.readTree(send(base, "POST", "/api/v1/push", push.append("]}").toString())
                            .body());
                    StringBuilder acks = new StringBuilder("{\"acknowledgments\":[");
                    for (int i = 0; i < pushed.size(); i++) {
                        acks.append(i == 0 ? "" : ",").append("{\"transactionId\":\"")
                                .append(pushed.get(i).get("transaction_id").asString()).append("\",\"partitionId\":\"")
                                .append(pushed.get(i).get("partition_id").asString())
                                .append("\",\"status\":\"dlq\",\"error\":\"error-").append((from + i) % 1000)
                                .append("\"}");
                    }
                    send(base, "POST", "/api/v1/ack/batch", acks.append("]}").toString());
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        workers.shutdown();
    }

    private static double medianMs(String base, String path) throws Exception {
        List<Long> micros = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            long t = System.nanoTime();
            send(base, "GET", path, null);
            micros.add((System.nanoTime() - t) / 1000);
        }
        Collections.sort(micros);
        return micros.get(micros.size() / 2) / 1000.0;
    }

    private static double pct(List<Long> sortedMicros, double p) {
        return sortedMicros.isEmpty() ? 0 : sortedMicros.get((int) Math.min(sortedMicros.size() - 1,
                Math.floor(p * sortedMicros.size()))) / 1000.0;
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    private static HttpResponse<String> send(String base, String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofMinutes(10)).header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300 && response.statusCode() != 204) {
            throw new IllegalStateException(method + " " + path + " -> " + response.statusCode() + " " + response.body());
        }
        return response;
    }
}
