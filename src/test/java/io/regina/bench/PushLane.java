package io.regina.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Lane 3 (Regina): messages/s pushed at 1, 100 and 1,000 messages per request by 16 producers. */
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
        List<Thread> producers = new ArrayList<>();
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        Window window = new Window(regina, settings.clockTicks());
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
        for (int p = 0; p < PRODUCERS; p++) {
            Thread t = new Thread(() -> {
                try (HttpConnection c = regina.connect()) {
                    while (System.nanoTime() < deadline) {
                        ReginaSystem.push(c, body, batch);
                        queued.addAndGet(batch);
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
        double elapsed = (System.nanoTime() - start) / 1e9;
        window.close();
        if (!failures.isEmpty()) {
            results.fail(NAME, condition, regina.name(), run, failures.size() + " producers failed; first: "
                    + failures.get(0));
            return;
        }
        results.record(NAME, condition, regina.name(), run, Metric.MESSAGES_PER_SECOND, queued.get() / elapsed);
        results.record(NAME, condition, regina.name(), run, Metric.CPU_PER_1000_MESSAGES,
                window.cpuPer1000(queued.get()));
        results.record(NAME, condition, regina.name(), run, Metric.RSS, window.rssMiB());
    }
}
