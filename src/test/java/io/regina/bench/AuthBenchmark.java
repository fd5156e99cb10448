package io.regina.bench;

import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;
import io.regina.testing.TestTokens;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Push and pop+ack rates with API authentication off and on (issue 9). Starts its own broker jar twice,
 * once as shipped and once with {@code regina.auth.enabled} and an HS256 secret, and runs the same two
 * short lanes on each, every request of the second carrying one read-write token: one-message pushes
 * from 16 connections for 5 s, and 16 workers popping (batch 1) and acking one message at a time for 5 s
 * from a backlog pushed beforehand. Prints messages/s and broker CPU per 1,000 messages side by side,
 * each broker measured after an unrecorded warm-up of both lanes. Run: {@code bench/scale.sh auth}.
 */
public final class AuthBenchmark {
    static final String PUSH = "Push — 16 connections, one 330-byte message per request, 5 s";
    static final String POP_ACK = "Pop + ack — 16 workers, pop batch=1 then one ack per message, 5 s";
    private static final String OFF = "Regina, auth off";
    private static final String ON = "Regina, auth on (HS256, token on every request)";
    private static final String SECRET = "bench-auth-secret-of-at-least-32-bytes";
    private static final int CONNECTIONS = 16;
    private static final int SECONDS = 5;
    private static final int WARM_UP_SECONDS = 2;
    /** More than 16 workers ack in 5 s on two cores, so the backlog never runs dry while measured. */
    private static final int BACKLOG = 40_000;
    private static final int WARM_UP_BACKLOG = 10_000;

    private final Results results = new Results(List.of(OFF, ON));
    private final int clockTicks = Integer.parseInt(System.getProperty("clk.tck", "100"));
    private final String heap = System.getProperty("broker.heap", "-Xmx2g");
    private final String nonce = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

    private AuthBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        AuthBenchmark bench = new AuthBenchmark();
        bench.measure(OFF, null);
        bench.measure(ON, TestTokens.hs256(SECRET, "bench", "read-write"));
        System.out.printf("%n## API authentication off and on (%s, %d cores, Java %s, fsync on, broker %s,"
                        + " one run each, load average after: %s)%n%n", LocalDate.now(),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), bench.heap,
                Files.readString(Path.of("/proc/loadavg")).trim());
        System.out.println(bench.results.markdown());
        if (bench.results.failed()) {
            System.exit(1);
        }
    }

    /** One broker, started for {@code system}: with auth on when it gets a token, which every request then sends. */
    private void measure(String system, String token) throws Exception {
        List<String> args = new ArrayList<>(List.of(heap));
        if (token != null) {
            args.addAll(List.of("--regina.auth.enabled=true", "--regina.auth.secret=" + SECRET));
        }
        Path data = Files.createTempDirectory("regina-auth").resolve("data");
        try (BrokerProcess broker = new BrokerProcess(data, FreePorts.next(), FreePorts.next(),
                args.toArray(String[]::new)).start()) {
            ReginaSystem regina = new ReginaSystem(broker.baseUrl(), broker.pid(), system, false, token);
            Benchmark.LOG.printf("[auth] %s: warm-up%n", system);
            pushes(regina, WARM_UP_SECONDS);
            popAcks(regina, WARM_UP_BACKLOG, WARM_UP_SECONDS);
            Benchmark.LOG.printf("[auth] %s: measuring%n", system);
            record(PUSH, system, () -> pushes(regina, SECONDS));
            record(POP_ACK, system, () -> notDrained(popAcks(regina, BACKLOG, SECONDS)));
        }
    }

    /** What one lane measured: messages, the seconds they took, and the broker's CPU seconds meanwhile. */
    private record Measured(long messages, double seconds, Window window) {
    }

    private interface Lane {
        Measured run() throws Exception;
    }

    private void record(String lane, String system, Lane measured) {
        String condition = "messages/s and broker CPU";
        try {
            Measured m = measured.run();
            results.record(lane, condition, system, 1, Metric.MESSAGES_PER_SECOND, m.messages() / m.seconds());
            results.record(lane, condition, system, 1, Metric.CPU_PER_1000_MESSAGES, m.window().cpuPer1000(m.messages()));
        } catch (Exception e) {
            results.fail(lane, condition, system, 1, Benchmark.describe(e));
        }
    }

    /** A pop+ack window that emptied its backlog measured idle workers too: its rate would be a floor. */
    private static Measured notDrained(Measured m) {
        if (m.messages() >= BACKLOG) {
            throw new IllegalStateException("the workers drained all " + BACKLOG + " messages: raise BACKLOG");
        }
        return m;
    }

    /** One-message pushes (new messages: no transactionId) in a loop on each of 16 connections. */
    private Measured pushes(ReginaSystem regina, int seconds) throws Exception {
        String queue = "bench-auth-push-" + nonce + "-" + System.nanoTime() % 1_000_000;
        String body = "{\"items\":[{\"queue\":\"" + queue + "\",\"payload\":" + new JobSet(queue, 1).payload(0) + "}]}";
        AtomicLong queued = new AtomicLong();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        Window window = new Window(regina, clockTicks);
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < CONNECTIONS; p++) {
            Thread t = new Thread(() -> {
                try (HttpConnection c = regina.connect()) {
                    while (System.nanoTime() < deadline) {
                        ReginaSystem.push(c, body, 1);
                        queued.incrementAndGet();
                    }
                } catch (Exception e) {
                    failures.add(Benchmark.describe(e));
                }
            }, "auth-producer-" + p);
            producers.add(t);
            t.start();
        }
        for (Thread t : producers) {
            t.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        window.close();
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " producers failed; first: " + failures.get(0));
        }
        return new Measured(queued.get(), elapsed, window);
    }

    /** {@code backlog} messages pushed first (500 per request), then 16 workers pop and ack for {@code seconds}. */
    private Measured popAcks(ReginaSystem regina, int backlog, int seconds) throws Exception {
        String queue = "bench-auth-pop-" + nonce + "-" + System.nanoTime() % 1_000_000;
        regina.enqueue(queue, new JobSet(queue + "-", backlog));
        AtomicLong acked = new AtomicLong();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        Window window = new Window(regina, clockTicks);
        long start = System.nanoTime();
        QueueSystem.Workers workers = regina.start(queue, CONNECTIONS, new QueueSystem.JobHandler() {
            @Override
            public void delivered(String id) {
            }

            @Override
            public void run(String id) {
            }

            @Override
            public void acked(String id) {
                acked.incrementAndGet();
            }

            @Override
            public void failed(String what) {
                failures.add(what);
            }
        });
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        workers.stop();
        double elapsed = (System.nanoTime() - start) / 1e9;
        window.close();
        if (!failures.isEmpty()) {
            throw new IllegalStateException(failures.size() + " pops or acks failed; first: " + failures.get(0));
        }
        return new Measured(acked.get(), elapsed, window);
    }
}
