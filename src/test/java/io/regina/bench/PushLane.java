package io.regina.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Lane 3 (Regina): messages/s pushed at 1, 100 and 1,000 messages per request by 16 producers, beside the
 * rate of {@code GET /health} (answers a constant, no Raft) on the same connections model: the HTTP
 * stack's own ceiling, which a one-message push is held against.
 */
final class PushLane {

    static final String NAME = "Push — 16 producers, 330-byte payloads (Regina)";

    private static final int PRODUCERS = 16;

    private final Settings settings;
    private final Results results;

    PushLane(Settings settings, Results results) {
        this.settings = settings;
        this.results = results;
    }

    void run(ReginaSystem regina) {
        int seconds = settings.quick() ? 5 : 10;
        String noop = String.format("no-op GET /health (requests/s), %d s", seconds);
        for (int run = 1; run <= settings.runs(); run++) {
            Benchmark.LOG.printf("[push run %d] %s%n", run, noop);
            try {
                AtomicLong answered = new AtomicLong();
                double elapsed = flood(regina, seconds, c -> {
                    HttpConnection.Response r = c.get("/health");
                    ReginaSystem.expect(r, 200, "health");
                    answered.incrementAndGet();
                });
                results.record(NAME, noop, regina.name(), run, Metric.MESSAGES_PER_SECOND, answered.get() / elapsed);
            } catch (Exception e) {
                results.fail(NAME, noop, regina.name(), run, Benchmark.describe(e));
            }
        }
        for (int batch : new int[] {1, 100, 1000}) {
            String condition = String.format("%,d per request, %d s", batch, seconds);
            for (int run = 1; run <= settings.runs(); run++) {
                Benchmark.LOG.printf("[push run %d] %s%n", run, condition);
                String q = settings.queue("push", run);
                try {
                    measure(regina, q, batch, seconds, run, condition);
                } catch (Exception e) {
                    results.fail(NAME, condition, regina.name(), run, Benchmark.describe(e));
                } finally {
                    try {
                        regina.delete(q);
                    } catch (Exception e) {
                        Benchmark.LOG.println("delete " + q + ": " + Benchmark.describe(e));
                    }
                }
            }
        }
    }

    private void measure(ReginaSystem regina, String q, int batch, int seconds, int run, String condition)
            throws Exception {
        JobSet set = new JobSet(q + "-", batch);
        StringBuilder sb = new StringBuilder(batch * 400).append("{\"items\":[");
        for (int i = 0; i < batch; i++) {
            // no transactionId: every request's copies are new messages
            sb.append(i == 0 ? "" : ",").append("{\"queue\":\"").append(q).append("\",\"payload\":")
                    .append(set.payload(i)).append('}');
        }
        String body = sb.append("]}").toString();
        AtomicLong queued = new AtomicLong();
        Window window = new Window(regina, settings.clockTicks());
        double elapsed = flood(regina, seconds, c -> {
            ReginaSystem.push(c, body, batch);
            queued.addAndGet(batch);
        });
        window.close();
        results.record(NAME, condition, regina.name(), run, Metric.MESSAGES_PER_SECOND, queued.get() / elapsed);
        results.record(NAME, condition, regina.name(), run, Metric.CPU_PER_1000_MESSAGES,
                window.cpuPer1000(queued.get()));
        results.record(NAME, condition, regina.name(), run, Metric.RSS, window.rssMiB());
    }

    /** One request of a producer. */
    private interface Request {
        void send(HttpConnection c) throws Exception;
    }

    /** Runs {@code request} in a loop on each producer's connection for {@code seconds}; the elapsed seconds. */
    private static double flood(ReginaSystem regina, int seconds, Request request) throws Exception {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> producers = new ArrayList<>();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        for (int p = 0; p < PRODUCERS; p++) {
            Thread t = new Thread(() -> {
                try (HttpConnection c = regina.connect()) {
                    while (System.nanoTime() < deadline) {
                        request.send(c);
                    }
                    regina.count(c);
                } catch (Exception e) {
                    failures.add(Benchmark.describe(e));
                }
            }, "producer-" + p);
            producers.add(t);
            t.start();
        }
        for (Thread t : producers) {
            t.join();
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " producers failed; first: " + failures.get(0));
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
