package io.regina.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The side-by-side benchmark client: a {@code main}, not a test. {@code bench/run.sh} starts Regina, Redis
 * and RabbitMQ and runs this against them; each lane drives every system with the same worker model, the
 * systems alternating within the lane, and checks that the exact job set completed. It writes
 * {@code results.md} (conditions and one table per lane), {@code results.csv} and {@code chart.svg}, and
 * exits 1 when any run failed.
 *
 * <p>Options: {@code --regina-url URL --regina-pid PID [--regina-build TEXT]}, {@code --redis-port P
 * --redis-pid PID}, {@code --rabbit-port P --rabbit-pid PID} (a system whose options are missing is not run),
 * {@code --quick}, {@code --runs N}, {@code --lanes pool,paced,push,wildcard}, {@code --workers 16,32},
 * {@code --job-ms 10,0}, {@code --rates 200,500}, {@code --jobs N}, {@code --paced-seconds N},
 * {@code --out DIR}, {@code --clk-tck N}, {@code --java TEXT}.
 */
public final class Benchmark {

    static final PrintStream LOG = System.err;
    private static final List<String> ALL_LANES = List.of("pool", "paced", "push", "wildcard");

    private Benchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = parse(args);
        boolean quick = opts.containsKey("quick");
        Settings settings = new Settings(quick, Integer.parseInt(opts.getOrDefault("runs", quick ? "1" : "3")),
                Integer.parseInt(opts.getOrDefault("jobs", quick ? "3000" : "20000")),
                ints(opts.getOrDefault("workers", "16,32,64,128")), ints(opts.getOrDefault("job-ms", "10,0")),
                ints(opts.getOrDefault("rates", "200,500,1000")),
                Integer.parseInt(opts.getOrDefault("paced-seconds", quick ? "5" : "20")),
                Integer.parseInt(opts.getOrDefault("clk-tck", "100")),
                Long.toString(System.currentTimeMillis() % 1_000_000, 36));
        Set<String> lanes = Set.copyOf(Arrays.asList(opts.getOrDefault("lanes", String.join(",", ALL_LANES))
                .split(",")));
        if (!ALL_LANES.containsAll(lanes)) {
            throw new IllegalArgumentException("--lanes takes some of " + ALL_LANES + ", not " + lanes);
        }

        List<QueueSystem> systems = new ArrayList<>();
        ReginaSystem regina = null;
        if (opts.containsKey("regina-url")) {
            regina = new ReginaSystem(opts.get("regina-url"), Long.parseLong(opts.get("regina-pid")),
                    opts.getOrDefault("regina-build", "Regina"), false);
            systems.add(regina);
            systems.add(new ReginaSystem(opts.get("regina-url"), Long.parseLong(opts.get("regina-pid")),
                    opts.getOrDefault("regina-build", "Regina"), true));
        }
        if (opts.containsKey("redis-port")) {
            systems.add(new RedisSystem("127.0.0.1", Integer.parseInt(opts.get("redis-port")),
                    Long.parseLong(opts.get("redis-pid"))));
        }
        if (opts.containsKey("rabbit-port")) {
            systems.add(new RabbitSystem("127.0.0.1", Integer.parseInt(opts.get("rabbit-port")),
                    Long.parseLong(opts.get("rabbit-pid"))));
        }
        if (systems.isEmpty()) {
            throw new IllegalArgumentException("no system to measure: give --regina-url, --redis-port or --rabbit-port");
        }
        List<String> names = systems.stream().map(QueueSystem::name).toList();
        Results results = new Results(names);
        String started = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        String loadBefore = loadAverage();
        long t0 = System.nanoTime();

        PoolLane pool = new PoolLane(settings, results);
        for (QueueSystem s : systems) {
            // Regina's JIT needs far longer than the peers' (BENCHMARKS.md): it warms up until it stops compiling,
            // and so does Regina's ack+pop path on the same JVM, which compiles what its own requests run
            boolean jit = new ProcessStats(s.pid(), settings.clockTicks()).compilerCpuSeconds() > 0;
            pool.warmUp(s, s == regina ? (quick ? 20 : 60) : 5, jit ? (quick ? 120 : 240) : 5);
        }
        if (lanes.contains("pool")) {
            pool.run(systems);
        }
        if (lanes.contains("paced")) {
            new PacedLane(settings, results, slowPushes(opts)).run(systems);
        }
        if (regina != null && lanes.contains("push")) {
            new PushLane(settings, results).run(regina);
        }
        if (regina != null && lanes.contains("wildcard")) {
            new WildcardLane(settings, results, WildcardLane.SIDE_BY_SIDE_MESSAGES).run(regina);
        }

        double minutes = (System.nanoTime() - t0) / 60e9;
        String md = conditions(opts, settings, systems, started, minutes, loadBefore) + "\n" + results.markdown();
        Path out = Path.of(opts.getOrDefault("out", "target/bench"));
        Files.createDirectories(out);
        Files.writeString(out.resolve("results.md"), md);
        Files.writeString(out.resolve("results.csv"), results.csv(started));
        Files.writeString(out.resolve("chart.svg"), new SvgChart(results, names).render(
                "Regina and its peers, one machine, one run (" + started.substring(0, 16) + ", medians)", List.of(
                        new SvgChart.Panel(PoolLane.NAME, Metric.JOBS_PER_SECOND),
                        new SvgChart.Panel(PoolLane.NAME, Metric.CPU_PER_1000),
                        new SvgChart.Panel(PacedLane.NAME, Metric.LATENCY_P99),
                        new SvgChart.Panel(PacedLane.NAME, Metric.CPU_PER_1000),
                        new SvgChart.Panel(PushLane.NAME, Metric.MESSAGES_PER_SECOND),
                        new SvgChart.Panel(WildcardLane.NAME, Metric.MESSAGES_PER_SECOND))));
        System.out.println(md);
        LOG.println("wrote " + out.resolve("results.md") + ", results.csv, chart.svg");
        systems.forEach(QueueSystem::close);
        if (results.failed()) {
            LOG.println("FAILED: at least one run did not complete its exact job set or hit an error; see the tables");
            System.exit(1);
        }
        System.exit(0);
    }

    private static String conditions(Map<String, String> opts, Settings settings, List<QueueSystem> systems,
                                     String started, double minutes, String loadBefore) {
        StringBuilder sb = new StringBuilder();
        sb.append("## bench/run.sh — ").append(started).append("\n\n| condition | value |\n|---|---|\n");
        sb.append("| CPUs | ").append(opts.getOrDefault("nproc", Runtime.getRuntime().availableProcessors() + ""))
                .append(", shared by the brokers and the load generator |\n");
        sb.append("| Java (client and Regina) | ").append(opts.getOrDefault("java", System.getProperty("java.vm.name")
                + " " + System.getProperty("java.runtime.version"))).append(" |\n");
        for (QueueSystem s : systems) {
            sb.append("| ").append(s.name()).append(" | ").append(s.describe().replace("|", "\\|")).append(" |\n");
        }
        sb.append("| payload | ").append(JobSet.PAYLOAD_BYTES).append("-byte JSON per job, the same bytes on every "
                + "system |\n");
        sb.append("| worker model | N threads (RabbitMQ: N consumer callbacks on N executor threads), each takes one job "
                + "(prefetch 1 / batch 1), runs it, acks it; jobs/s from the first delivery to the last returned "
                + "ack; every run checks that the exact job set was acked, each job once |\n");
        sb.append("| pool lane | workers ").append(settings.poolWorkers()).append(" × jobs of ")
                .append(settings.poolJobMillis()).append(" ms, ").append(String.format("%,d", settings.poolJobs()))
                .append(" jobs enqueued first; Regina queues configured with stripes = workers; unrecorded warm-up "
                        + "drains first, in turn with each of the lanes' worker counts and job lengths (Regina at least 20 s "
                        + "quick / 60 s full and then until its last 3 s of rounds spent under 5% of its CPU in JIT "
                        + "compiler threads, at most 120 s / 240 s; its ack+pop path likewise from 5 s; the peers 5 s); "
                        + "and each system's measured drain follows an unrecorded one of the same shape (a quarter of the "
                        + "jobs, at least 2,000); \"broker CPU in JIT compilers\" is that share in the measured run |\n");
        sb.append("| paced lane | ").append(settings.rates()).append(" jobs/s for ").append(settings.pacedSeconds())
                .append(" s, 16 workers × 10 ms, one job per push from up to 32 pushers; latency from each job's "
                        + "scheduled dispatch time to its ack returned (HdrHistogram), push p50 / p95 / p99 from "
                        + "scheduled time to durable answer; the pacer sheds a job when all 32 pushers are busy; each "
                        + "system first runs unrecorded paced runs at each rate (5 s quick, 10 s full), a broker with "
                        + "a JIT again until one pass spent under 5% of its CPU compiling (at most 4 passes) |\n");
        sb.append("| broker CPU, RSS | utime + stime of the broker process from /proc/PID/stat over the measured "
                + "window; VmRSS from /proc/PID/status at its end |\n");
        sb.append("| requests per job | client requests sent per job: HTTP requests (Regina), Redis commands "
                + "(Laravel: 2 migrations + pop + ZREM, BLPOP when idle), AMQP methods (ack; deliveries are pushed) |\n");
        sb.append("| host load average (1/5/15 min) | before ").append(loadBefore).append(", after ")
                .append(loadAverage()).append(" — above the CPU count means other work shared the cores |\n");
        sb.append("| mode | ").append(settings.quick() ? "quick" : "full").append(", ").append(settings.runs())
                .append(settings.runs() == 1 ? " run per lane (no spread)" : " runs per lane: median (min–max)")
                .append(", systems alternating within each lane, ").append(Results.fmt(minutes)).append(" min |\n");
        return sb.toString();
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " / " + f[1] + " / " + f[2];
        } catch (Exception e) {
            return "unknown";
        }
    }

    static String describe(Throwable e) {
        Throwable t = e;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    /** {@code --slow-push-ms N}: the paced lane lists its pushes slower than N ms ({@link SlowPushes}). */
    private static SlowPushes slowPushes(Map<String, String> opts) throws java.io.IOException {
        if (!opts.containsKey("slow-push-ms")) {
            return SlowPushes.OFF;
        }
        Path out = Path.of(opts.getOrDefault("out", "target/bench"));
        Files.createDirectories(out);
        Path file = out.resolve("slow-pushes.txt");
        Files.deleteIfExists(file);
        return new SlowPushes(file, Long.parseLong(opts.get("slow-push-ms")));
    }

    private static List<Integer> ints(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).map(Integer::parseInt).toList();
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + a);
            }
            String k = a.substring(2);
            int eq = k.indexOf('=');
            if (eq >= 0) {
                opts.put(k.substring(0, eq), k.substring(eq + 1));
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                opts.put(k, args[++i]);
            } else {
                opts.put(k, "true");
            }
        }
        return opts;
    }
}
