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
 * The failed-jobs table at scale (issues 3 and 12). Fills N failed rows over 4 queues (256-byte payloads
 * carrying an order number, a customer of 10,000 and a shard of 10; errors naming the order), then times
 * the first page, a queue-filtered page, the count, word searches for a word in one row, in 100 and in
 * 100,000 rows (at a million rows), a restart (the word index is rebuilt from the snapshot), a retry of
 * half the rows and a flush of the rest. What the table and its index cost other queues is read from a
 * push and a pop on two other queues every 5 ms: idle, during a fill of N jobs acked {@code completed}
 * (the same traffic, no failed rows), during the fill of N dead-lettered jobs at the same pace, and
 * during the retry and the flush, each with what the broker spent on the apply thread and in GC pauses.
 * Run: {@code bench/scale.sh failed-jobs [rows]}; {@code -Dbroker.heap} takes the broker's JVM options,
 * separated by spaces; {@code -Dfill.rate} the fills' pace in rows a second (default 20,000; 0: as fast
 * as it goes).
 */
public final class FailedJobsBenchmark {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private FailedJobsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int rate = Integer.getInteger("fill.rate", 20_000);
        String heap = System.getProperty("broker.heap", "-Xmx4g");
        BrokerProcess broker = new BrokerProcess(Files.createTempDirectory("regina-failed").resolve("data"),
                FreePorts.next(), FreePorts.next(), heap.trim().split("\\s+")).start();
        boolean mismatch = false;
        try {
            String base = broker.baseUrl();
            pushProbes(base, 200_000);
            Phase idle = Phase.run(base, () -> Thread.sleep(10_000));
            Phase completed = Phase.run(base, () -> fill(base, rows, "b", "completed", rate));
            Phase failing = Phase.run(base, () -> fill(base, rows, "q", "dlq", rate));
            double firstPage = medianMs(base, "/api/v1/failed-jobs?limit=50");
            double queuePage = medianMs(base, "/api/v1/failed-jobs?limit=50&queue=q1");
            double count = medianMs(base, "/api/v1/failed-jobs?limit=1");
            long total = total(base);
            double deepPage = medianMs(base, "/api/v1/failed-jobs?limit=50&cursor="
                    + JSON.readTree(send(base, "GET", "/api/v1/failed-jobs?limit=1000&queue=q2", null).body())
                    .get("nextCursor").asString());
            int old = rows / 20;
            String[][] searches = {
                {"one row (order " + old + ", oldest tenth)", "q=" + old},
                {"100 rows (cust-42)", "q=cust-42"},
                {"100,000 rows (s7)", "q=s7"},
                {"100,000 rows and queue q1 (s7, queue=q1)", "q=s7&queue=q1"},
                {"two words (PaymentGatewayTimeout " + old + ")", "q=PaymentGatewayTimeout+" + old},
            };
            List<String> searchRows = new ArrayList<>();
            for (String[] search : searches) {
                searchRows.add(search(base, search[0], search[1]));
            }
            long indexBytes = indexBytes(base);

            broker.stop();
            long restartStart = System.nanoTime();
            broker.start();
            double restartSeconds = seconds(restartStart);
            String afterRestart = search(base, "after the restart: " + searches[0][0], searches[0][1]);

            long[] retried = new long[1];
            Phase retrying = Phase.run(base, () -> {
                for (String queue : List.of("q0", "q1")) {
                    retried[0] += JSON.readTree(send(base, "POST", "/api/v1/failed-jobs/retry",
                            "{\"queue\":\"" + queue + "\"}").body()).get("retried").asLong();
                }
            });
            long[] flushed = new long[1];
            Phase flushing = Phase.run(base, () -> flushed[0] = JSON.readTree(send(base, "POST",
                    "/api/v1/failed-jobs/flush", "{}").body()).get("flushed").asLong());
            long left = total(base);

            System.out.printf("%n## Failed jobs at %,d rows (%s, %d cores, Java %s, fsync on, broker %s, fill %s)%n%n",
                    total, java.time.LocalDate.now(), Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"), heap, rate == 0 ? "as fast as it goes" : rate + " rows/s");
            System.out.println("| operation | result |");
            System.out.println("|---|---:|");
            System.out.printf("| first page (50 rows, newest first, with total) | %.2f ms |%n", firstPage);
            System.out.printf("| queue-filtered page (50 rows) | %.2f ms |%n", queuePage);
            System.out.printf("| count (limit=1, total) | %.2f ms |%n", count);
            System.out.printf("| page 21 by cursor (queue q2) | %.2f ms |%n", deepPage);
            searchRows.forEach(System.out::println);
            System.out.printf("| word index memory (regina.failed.jobs.index, estimate) | %,d MB (%,d bytes/row) |%n",
                    indexBytes >> 20, indexBytes / Math.max(1, total));
            System.out.printf("| restart after a graceful stop (snapshot load, index rebuilt) | %.1f s |%n",
                    restartSeconds);
            System.out.println(afterRestart);
            System.out.printf("%nA push and a pop on two other queues every 5 ms through each phase, and what the broker"
                    + " spent meanwhile:%n%n");
            System.out.println("| phase | wall | push p50 / p99 / max | pop p50 / p99 / max | apply thread busy "
                    + "(entries, mean) | GC pauses |");
            System.out.println("|---|---:|---:|---:|---:|---:|");
            System.out.println(idle.row("idle (10 s)"));
            System.out.println(completed.row(String.format("fill %,d jobs acked completed (no failed rows)", rows)));
            System.out.println(failing.row(String.format("fill %,d jobs acked dlq (every row indexed)", rows)));
            System.out.println(retrying.row(String.format("retry %,d rows (queues q0, q1; rows leave the index)",
                    retried[0])));
            System.out.println(flushing.row(String.format("flush %,d rows (the rest)", flushed[0])));
            if (total != rows || retried[0] + flushed[0] != rows || left != 0) {
                System.out.println("MISMATCH: expected " + rows + " rows, table had " + total + ", retried "
                        + retried[0] + ", flushed " + flushed[0] + ", left " + left);
                mismatch = true;
            }
        } finally {
            broker.close();
        }
        // after the finally: System.exit inside it would skip the close and leave the broker running
        if (mismatch) {
            System.exit(1);
        }
    }

    private static long total(String base) throws Exception {
        return JSON.readTree(send(base, "GET", "/api/v1/failed-jobs?limit=1", null).body()).get("total").asLong();
    }

    /** One search, 21 times: p50 / p95 of the whole answer (first page of 50 and the exact total). */
    private static String search(String base, String label, String query) throws Exception {
        List<Long> micros = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < 21; i++) {
            long t = System.nanoTime();
            total = JSON.readTree(send(base, "GET", "/api/v1/failed-jobs?limit=50&" + query, null).body())
                    .get("total").asLong();
            micros.add((System.nanoTime() - t) / 1000);
        }
        Collections.sort(micros);
        return String.format("| search, word in %s: total %,d, first page p50 / p95 | %.2f / %.2f ms |", label, total,
                pct(micros, 0.5), pct(micros, 0.95));
    }

    private static long indexBytes(String base) throws Exception {
        return JSON.readTree(send(base, "GET", "/actuator/metrics/regina.failed.jobs.index", null).body())
                .get("measurements").get(0).get("value").asLong();
    }

    /**
     * What the broker spent so far on the apply thread (entries applied, the longest one) and in GC pauses,
     * from its metrics; {@link #since} makes it one phase's.
     */
    private record Busy(long applies, double applySeconds, long pauses, double pauseSeconds) {
        static Busy read(String base) throws Exception {
            JsonNode apply = metric(base, "regina.raft.apply.latency");
            JsonNode gc = metric(base, "jvm.gc.pause");
            return new Busy((long) statistic(apply, "COUNT"), statistic(apply, "TOTAL_TIME"),
                    (long) statistic(gc, "COUNT"), statistic(gc, "TOTAL_TIME"));
        }

        /** This phase's entries and times; the longest apply is the broker's longest so far. */
        Busy since(Busy before) {
            return new Busy(applies - before.applies, applySeconds - before.applySeconds, pauses - before.pauses,
                    pauseSeconds - before.pauseSeconds);
        }

        /** Apply thread busy (entries, mean entry) and GC pauses (total, count): two table cells. */
        String cells() {
            return String.format("%.1f s (%,d, %.2f ms) | %.1f s (%d)", applySeconds, applies,
                    applies == 0 ? 0 : applySeconds * 1000 / applies, pauseSeconds, pauses);
        }

        private static JsonNode metric(String base, String name) throws Exception {
            return JSON.readTree(send(base, "GET", "/actuator/metrics/" + name, null).body());
        }

        private static double statistic(JsonNode metric, String statistic) {
            for (JsonNode measurement : metric.get("measurements")) {
                if (measurement.get("statistic").asString().equals(statistic)) {
                    return measurement.get("value").asDouble();
                }
            }
            return 0;
        }
    }

    private static void pushProbes(String base, int count) throws Exception {
        for (int from = 0; from < count; from += 1000) {
            StringBuilder push = new StringBuilder("{\"items\":[");
            for (int i = 0; i < 1000; i++) {
                push.append(i == 0 ? "" : ",").append("{\"queue\":\"probe\",\"payload\":").append(from + i).append('}');
            }
            send(base, "POST", "/api/v1/push", push.append("]}").toString());
        }
    }

    /** What a phase does while it is measured. */
    private interface Work {
        void run() throws Exception;
    }

    /**
     * One phase's latencies of a push to one other queue and a pop (auto-acked) of another, one each
     * every 5 ms while the phase ran, sorted, and what the broker spent meanwhile.
     */
    private record Phase(double wall, List<Long> pushes, List<Long> pops, Busy busy) {
        static Phase run(String base, Work work) throws Exception {
            AtomicBoolean running = new AtomicBoolean(true);
            List<Long> pushes = Collections.synchronizedList(new ArrayList<>());
            List<Long> pops = Collections.synchronizedList(new ArrayList<>());
            ExecutorService thread = Executors.newSingleThreadExecutor();
            Busy before = Busy.read(base);
            long start = System.nanoTime();
            Future<?> probing = thread.submit(() -> {
                while (running.get()) {
                    long t = System.nanoTime();
                    send(base, "POST", "/api/v1/push", "{\"items\":[{\"queue\":\"probe-push\",\"payload\":1}]}");
                    long u = System.nanoTime();
                    send(base, "GET", "/api/v1/pop/queue/probe?autoAck=true", null);
                    pushes.add((u - t) / 1000);
                    pops.add((System.nanoTime() - u) / 1000);
                    Thread.sleep(5);
                }
                return null;
            });
            try {
                work.run();
            } finally {
                running.set(false);
                probing.get();
                thread.shutdown();
            }
            return new Phase(seconds(start), sorted(pushes), sorted(pops), Busy.read(base).since(before));
        }

        String row(String phase) {
            return String.format("| %s | %.1f s | %s | %s | %s |", phase, wall, latency(pushes), latency(pops),
                    busy.cells());
        }

        private static List<Long> sorted(List<Long> micros) {
            List<Long> sorted = new ArrayList<>(micros);
            Collections.sort(sorted);
            return sorted;
        }

        private static String latency(List<Long> sortedMicros) {
            return String.format("%.1f / %.1f / %.1f ms", pct(sortedMicros, 0.5), pct(sortedMicros, 0.99),
                    sortedMicros.isEmpty() ? 0 : sortedMicros.get(sortedMicros.size() - 1) / 1000.0);
        }
    }

    /**
     * Pushes {@code rows} jobs over 4 queues named {@code prefix}0..3 in steps of 1,000 (4 producers)
     * and acks each step with {@code status} in one batch, dead-letters naming the order; paced to
     * {@code rate} rows a second (0: as fast as it goes).
     */
    private static void fill(String base, int rows, String prefix, String status, int rate) throws Exception {
        ExecutorService workers = Executors.newFixedThreadPool(4);
        AtomicLong next = new AtomicLong();
        long start = System.nanoTime();
        long nanosPerStep = rate == 0 ? 0 : 1_000_000_000L * 1000 / rate;
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            done.add(workers.submit(() -> {
                long from;
                while ((from = next.getAndAdd(1000)) < rows) {
                    long due = start + from / 1000 * nanosPerStep;
                    while (System.nanoTime() < due) {
                        Thread.sleep(1);
                    }
                    String queue = prefix + (from / 1000 % 4);
                    StringBuilder push = new StringBuilder("{\"items\":[");
                    for (int i = 0; i < 1000; i++) {
                        push.append(i == 0 ? "" : ",").append("{\"queue\":\"").append(queue).append("\",\"payload\":")
                                .append(payload(from + i)).append('}');
                    }
                    JsonNode pushed = JSON.readTree(send(base, "POST", "/api/v1/push", push.append("]}").toString())
                            .body());
                    StringBuilder acks = new StringBuilder("{\"acknowledgments\":[");
                    for (int i = 0; i < pushed.size(); i++) {
                        acks.append(i == 0 ? "" : ",").append("{\"transactionId\":\"")
                                .append(pushed.get(i).get("transaction_id").asString()).append("\",\"partitionId\":\"")
                                .append(pushed.get(i).get("partition_id").asString()).append("\",\"status\":\"")
                                .append(status).append("\",\"error\":\"PaymentGatewayTimeout after 30000 ms (order ")
                                .append(from + i).append(")\"}");
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

    /** A 256-byte payload: an order number (one row), a customer (100 rows of a million), a shard (100,000). */
    private static String payload(long order) {
        String fields = "{\"order\":" + order + ",\"customer\":\"cust-" + order % 10_000 + "\",\"shard\":\"s"
                + order % 10 + "\",\"pad\":\"";
        return fields + "p".repeat(Math.max(0, 256 - fields.length() - 2)) + "\"}";
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
