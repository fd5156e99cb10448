package io.regina.bench;

import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;

import java.nio.file.Files;
import java.util.List;

/**
 * A wildcard pop over many ready partitions (issues 8 and 9): starts its own broker jar, pushes one
 * message to each of N partitions (default 5,000) and drains them with 10 concurrent wildcard pops of
 * batch 1, then drains the same N messages spread over 10 partitions, and prints messages/s and broker
 * CPU per 1,000 messages for both ({@link WildcardLane}), after an unrecorded warm-up pass. Run: {@code bench/scale.sh partitions [n]}.
 */
public final class PartitionsBenchmark {
    private static final int WARM_UP_MESSAGES = 2_000;

    private PartitionsBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int partitions = args.length > 0 ? Integer.parseInt(args[0]) : WildcardLane.SIDE_BY_SIDE_MESSAGES;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        String heap = System.getProperty("broker.heap", "-Xmx2g");
        BrokerProcess broker = new BrokerProcess(Files.createTempDirectory("regina-partitions").resolve("data"),
                FreePorts.next(), FreePorts.next(), heap).start();
        boolean failed;
        try {
            ReginaSystem regina = new ReginaSystem(broker.baseUrl(), broker.pid(), "Regina (" + heap + ")", false);
            Settings settings = new Settings(true, runs, 0, List.of(), List.of(), List.of(), 0,
                    Integer.parseInt(System.getProperty("clk.tck", "100")),
                    Long.toString(System.currentTimeMillis() % 1_000_000, 36));
            // The first drains pay for the broker's JIT warm-up: run one unrecorded pass before measuring.
            new WildcardLane(settings, new Results(List.of(regina.name())), WARM_UP_MESSAGES).run(regina);
            Results results = new Results(List.of(regina.name()));
            new WildcardLane(settings, results, partitions).run(regina);
            System.out.printf("%n## Wildcard pop over many partitions (%s, %d cores, Java %s, fsync on, broker %s,"
                    + " %d run(s), load average before: %s)%n%n", java.time.LocalDate.now(),
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), heap, runs,
                    Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim());
            System.out.println(results.markdown());
            failed = results.failed();
        } finally {
            broker.close();
        }
        // after the finally: System.exit inside it would skip the close and leave the broker running
        if (failed) {
            System.exit(1);
        }
    }
}
