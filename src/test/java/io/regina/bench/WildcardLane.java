package io.regina.bench;

import java.util.concurrent.TimeUnit;

/**
 * Lane 4 (Regina): a wildcard pop (queue-level, any partition) with batch 1 by 10 consumers, draining one
 * message from each of N ready partitions (5,000 in the side-by-side run), against the same number of
 * messages spread over 10 partitions: a pop over many partitions should cost what it costs over few.
 * {@link PartitionsBenchmark} runs it alone at larger N.
 */
final class WildcardLane {

    static final String NAME = "Wildcard pop — 10 consumers, batch 1, pop + ack per message (Regina)";

    static final int SIDE_BY_SIDE_MESSAGES = 5_000;
    private static final int CONSUMERS = 10;
    private static final int FEW_PARTITIONS = 10;

    private final Settings settings;
    private final Results results;
    private final int messages;

    WildcardLane(Settings settings, Results results, int messages) {
        this.settings = settings;
        this.results = results;
        this.messages = messages;
    }

    void run(ReginaSystem regina) {
        for (int partitions : new int[] {FEW_PARTITIONS, messages}) {
            String condition = String.format("%,d messages over %,d ready partitions", messages, partitions);
            for (int run = 1; run <= settings.runs(); run++) {
                Benchmark.LOG.printf("[wildcard run %d] %s%n", run, condition);
                try {
                    measure(regina, partitions, run, condition);
                } catch (Exception e) {
                    results.fail(NAME, condition, regina.name(), run, Benchmark.describe(e));
                }
            }
        }
    }

    private void measure(ReginaSystem regina, int partitions, int run, String condition) throws Exception {
        String q = settings.queue("wildcard", run);
        JobSet set = new JobSet(q + "-", messages);
        regina.create(q, 1);
        try {
            try (HttpConnection c = regina.connect()) {
                for (int from = 0; from < messages; from += 500) {
                    int to = Math.min(messages, from + 500);
                    StringBuilder sb = new StringBuilder((to - from) * 420).append("{\"items\":[");
                    for (int i = from; i < to; i++) {
                        ReginaSystem.item(sb.append(i == from ? "" : ","), q, "p-" + i % partitions, set, i);
                    }
                    ReginaSystem.push(c, sb.append("]}").toString(), to - from);
                }
                regina.count(c);
            }
            JobLedger ledger = new JobLedger(set, 0, i -> { });
            Window window = new Window(regina, settings.clockTicks());
            // 120 s, or 1 ms a message for the million-partition runs of bench/scale.sh
            long limitSeconds = Math.max(120, messages / 1_000);
            long limit = TimeUnit.SECONDS.toNanos(limitSeconds);
            QueueSystem.Workers w = regina.start(q, CONSUMERS, ledger);
            boolean done;
            try {
                done = ledger.awaitCompleted(messages, System.nanoTime() + limit);
                window.close();
            } finally {
                w.stop();
            }
            String problem = ledger.problem(i -> true);
            if (!done) {
                problem = "drain incomplete after " + limitSeconds + " s: " + ledger.completed() + "/" + messages + " acked"
                        + (problem == null ? "" : "; " + problem);
            }
            if (problem != null) {
                results.fail(NAME, condition, regina.name(), run, problem);
                return;
            }
            double seconds = (ledger.lastAckNanos() - ledger.firstDeliveryNanos()) / 1e9;
            results.record(NAME, condition, regina.name(), run, Metric.MESSAGES_PER_SECOND, messages / seconds);
            results.record(NAME, condition, regina.name(), run, Metric.CPU_PER_1000_MESSAGES,
                    window.cpuPer1000(messages));
            results.record(NAME, condition, regina.name(), run, Metric.REQUESTS_PER_JOB, window.requestsPer(messages));
        } finally {
            regina.delete(q);
        }
    }
}
