package io.regina.worker.matrix;

import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the failure matrix's classes share in one run (failsafe runs them in one JVM): the directory of their
 * logs, how they start a broker, and the table of results: lane, expected, result per profile. Each class
 * writes the table when it ends, so the last one leaves the whole of it in
 * {@code target/failure-matrix/table.txt}, rows in lane order (1 to 15, then the replica lanes R1, R2).
 */
final class MatrixRun {
    private static final Path DIR = Path.of("target", "failure-matrix");
    private static final Comparator<String> BY_LANE = Comparator.comparing(MatrixRun::number)
            .thenComparing(Comparator.naturalOrder());
    private static final Map<String, String> EXPECTED = new TreeMap<>(BY_LANE);
    private static final Map<String, Map<Profile, String>> RESULTS = new HashMap<>();
    private static boolean emptied;

    /** Something a lane does, which throws (an assertion) when it does not pass. */
    @FunctionalInterface
    interface Run {
        void run() throws Exception;
    }

    private MatrixRun() {
    }

    /**
     * Where the lanes keep their logs (each lane's supervisor output and job log, the brokers' logs) after the
     * run; emptied once per JVM, by the first class that asks.
     */
    static synchronized Path dir() throws IOException {
        if (!emptied) {
            if (Files.exists(DIR)) {
                try (var paths = Files.walk(DIR)) {
                    for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(DIR);
            emptied = true;
        }
        return DIR;
    }

    /** A broker process from the jar with its data in {@code name} under {@link #dir()}, serving. */
    static BrokerProcess broker(String name) throws IOException {
        return new BrokerProcess(dir().resolve(name), FreePorts.next(), FreePorts.next()).start();
    }

    /** Runs one lane in one profile, recording PASS with its time, or the first line of its failure. */
    static void run(String lane, String expected, Profile profile, Run body) throws Exception {
        synchronized (MatrixRun.class) {
            EXPECTED.put(lane, expected);
        }
        Instant began = Instant.now();
        try {
            body.run();
            record(lane, profile, "PASS (" + Duration.between(began, Instant.now()).toSeconds() + " s)");
        } catch (Exception | AssertionError e) {
            record(lane, profile, "FAIL: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            throw e;
        }
    }

    /** Prints the table of every lane run so far and writes it to {@code table.txt}. */
    static synchronized void write() throws IOException {
        String table = table();
        System.out.println(table);
        Files.writeString(dir().resolve("table.txt"), table);
    }

    private static synchronized void record(String lane, Profile profile, String result) {
        RESULTS.computeIfAbsent(lane, n -> new HashMap<>()).put(profile, result);
    }

    private static String table() {
        StringBuilder out = new StringBuilder("\nqueue:work failure matrix\n");
        String format = "%-44s | %-70s | %-22s | %-22s%n";
        out.append(String.format(format, "lane", "expected", Profile.SYNC.description(), Profile.ASYNC.description()));
        out.append("-".repeat(168)).append('\n');
        EXPECTED.forEach((lane, expected) -> {
            Map<Profile, String> results = RESULTS.getOrDefault(lane, Map.of());
            out.append(String.format(format, lane, expected, results.getOrDefault(Profile.SYNC, "not run"),
                    results.getOrDefault(Profile.ASYNC, "not run")));
        });
        return out.toString();
    }

    /** A lane's number, its name's first word; the replica lanes (R1, R2) after every numbered one. */
    private static int number(String lane) {
        String first = lane.split(" ")[0];
        return first.chars().allMatch(Character::isDigit) ? Integer.parseInt(first) : Integer.MAX_VALUE;
    }
}
