package io.regina.cli;

import io.regina.worker.supervisor.Supervisor;
import io.regina.worker.supervisor.SupervisorOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code queue:work}: the worker supervisor ({@link Supervisor}) in the foreground, until SIGTERM (a deploy)
 * or Ctrl-C, which stop it gracefully with exit 0.
 */
@Command(name = "queue:work",
        description = {"Run worker JVMs on a queue, from your classpath, and keep them running:",
            "a job past --timeout kills and replaces its worker, a worker over --memory is recycled after its job,",
            "a dead worker's unstarted jobs are handed back uncharged, repeated crashes back off.",
            "With --min below --max the workers follow the queue's depth, woken by a watch, shared with the",
            "other supervisors of the queue (a registry of leases in the broker, queue regina-supervisors.QUEUE).",
            "SIGTERM is a deploy: running jobs finish within --shutdown-grace, the rest is handed back; exit 0."})
final class WorkCommand implements Callable<Integer> {
    @ParentCommand
    ReginaCli root;

    @Spec
    CommandSpec spec;

    @Option(names = "--url", paramLabel = "URL[,URL…]",
            description = "The broker's base URLs (default: $REGINA_URL, else " + ReginaCli.DEFAULT_URL + ").")
    String url;

    @Option(names = "--token", paramLabel = "JWT", description = "A bearer token (default: $REGINA_TOKEN).")
    String token;

    @Option(names = "--queue", required = true, paramLabel = "QUEUE", description = "The queue to work.")
    String queue;

    @Option(names = "--group", paramLabel = "GROUP", description = "A consumer group (default: queue mode).")
    String group;

    @Option(names = "--job", required = true, paramLabel = "CLASS",
            description = "The JobHandler class, with a public no-argument constructor; the job kind is its name.")
    String job;

    @Option(names = "--classpath", required = true, paramLabel = "PATH",
            description = "Where --job and its dependencies are (jars and directories, ':'-separated).")
    String classpath;

    @Option(names = "--workers", defaultValue = "1", paramLabel = "N",
            description = "Worker JVMs, a fixed number: --min N --max N (default: ${DEFAULT-VALUE}).")
    int workers;

    @Option(names = "--min", paramLabel = "N",
            description = "Autoscale: the fewest worker JVMs, 0 or more (default: --workers).")
    Integer min;

    @Option(names = "--max", paramLabel = "N",
            description = "Autoscale: the most worker JVMs (default: --workers, or --min if larger).")
    Integer max;

    @Option(names = "--cooldown", defaultValue = "30", paramLabel = "SECONDS",
            description = "Autoscale: how long the demand stays lower before workers are let go (default: ${DEFAULT-VALUE}).")
    long coolDown;

    @Option(names = "--prefetch", defaultValue = "1", paramLabel = "N",
            description = "Jobs each worker pops at once (default: ${DEFAULT-VALUE}).")
    int prefetch;

    @Option(names = "--timeout", defaultValue = "60", paramLabel = "SECONDS",
            description = "The longest a job may run before its worker is killed (default: ${DEFAULT-VALUE}).")
    long timeout;

    @Option(names = "--tries", defaultValue = "1", paramLabel = "N",
            description = "Attempts of a job in all, before it fails (default: ${DEFAULT-VALUE}).")
    int tries;

    @Option(names = "--backoff", split = ",", paramLabel = "SECONDS[,SECONDS…]",
            description = "The wait before each retry: one number, or one per retry, the last repeated (default: 0).")
    List<Long> backoff = List.of();

    @Option(names = "--lease", defaultValue = "60", paramLabel = "SECONDS",
            description = "The lease of each pop, renewed by the worker while its jobs run (default: ${DEFAULT-VALUE}).")
    int lease;

    @Option(names = "--memory", defaultValue = "512", paramLabel = "MIB",
            description = "A worker resident above this is recycled after its job (default: ${DEFAULT-VALUE}).")
    long memory;

    @Option(names = "--shutdown-grace", defaultValue = "30", paramLabel = "SECONDS",
            description = "How long running jobs may take to finish on SIGTERM (default: ${DEFAULT-VALUE}).")
    long shutdownGrace;

    @Option(names = "--poll", defaultValue = "10", paramLabel = "SECONDS",
            description = "How long an idle worker's pop waits for work; a stop waits for it (default: ${DEFAULT-VALUE}).")
    long poll;

    @Option(names = "--async-acks", description = "Start the next job before the last one's ack is answered.")
    boolean asyncAcks;

    @Option(names = "--pop-ahead", description = "Pop the next batch while the last job of a full batch runs.")
    boolean popAhead;

    @Option(names = "--worker-java-opts", paramLabel = "OPTIONS",
            description = "JVM options of each worker, space-separated, e.g. \"-Xmx256m -XX:+UseSerialGC\".")
    String workerJavaOptions = "";

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Override
    public Integer call() throws InterruptedException {
        int fewest = min != null ? min : workers;
        int most = max != null ? max : Math.max(workers, fewest);
        SupervisorOptions options;
        try {
            options = new SupervisorOptions(url != null && !url.isBlank() ? url : root.defaultUrl(),
                    token != null && !token.isBlank() ? token.trim() : blankToNull(root.defaultToken()), queue, group,
                    fewest, most, Duration.ofSeconds(coolDown), prefetch, Duration.ofSeconds(timeout), tries, backoff, lease, memory,
                    Duration.ofSeconds(shutdownGrace), classpath, job, asyncAcks, popAhead, Duration.ofSeconds(poll),
                    Arrays.stream(workerJavaOptions.trim().split("\\s+")).filter(o -> !o.isEmpty()).toList());
        } catch (IllegalArgumentException e) {
            throw new CliException(ReginaCli.USAGE, e.getMessage());
        }
        return new Supervisor(options, System.out).runUntilSignalled();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
