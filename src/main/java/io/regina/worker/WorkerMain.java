package io.regina.worker;

import io.regina.client.ReginaClient;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One worker as a process of its own, for a supervisor that forks worker JVMs (a JVM cannot kill a thread,
 * but a supervisor can kill a process):
 *
 * <pre>
 * java -cp app.jar:regina.jar io.regina.worker.WorkerMain --url http://127.0.0.1:6632 --queue emails \
 *     --job com.example.SendEmail [--kind send-email] [--group G] [--prefetch 4] [--lease 60] [--poll 10] \
 *     [--tries 3] [--backoff 2,10] [--timeout 60] [--fail-on-timeout] [--max-exceptions N] [--retry-until S] \
 *     [--journal -|FILE] [--async-acks] [--pop-ahead] [--grace 30] [--supervised]
 * </pre>
 *
 * {@code --job} names a class with a public no-argument constructor implementing {@link JobHandler}; its
 * data binds to the handler's type argument, and its kind is {@code --kind} or the class name. Durations are
 * seconds. {@code --journal -} writes the {@link Journal} on stdout (then the job must not print there);
 * {@code --async-acks} needs it. The token is read from {@code REGINA_TOKEN}. SIGTERM stops the worker
 * gracefully within {@code --grace} ({@link Worker#stop}). With {@code --supervised} the end of stdin does
 * too: the supervisor holds the other end, so a supervisor that died (SIGKILL) leaves no orphan worker
 * behind, and the jobs it holds are finished or handed back by the worker itself. Exit codes: 0 stopped, 2 bad arguments,
 * {@value #STUCK} a job ignored its timeout's interrupt (the supervisor replaces the process).
 */
public final class WorkerMain {
    static final int USAGE = 2;
    /** The exit code of a worker whose job ignored its timeout's interrupt. */
    public static final int STUCK = 3;
    private static final Set<String> FLAGS = Set.of("--fail-on-timeout", "--async-acks", "--pop-ahead", "--supervised");

    private WorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        keepLoggingThroughShutdown();
        Map<String, String> options;
        Worker worker;
        try {
            options = parse(args);
            worker = worker(options);
        } catch (IllegalArgumentException | ReflectiveOperationException e) {
            System.err.println("regina worker: " + e.getMessage());
            System.exit(USAGE);
            return;
        }
        Duration grace = Duration.ofSeconds(Long.parseLong(options.getOrDefault("--grace", "30")));
        Thread stopper = new Thread(() -> {
            try {
                worker.stop(grace);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "regina-worker-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        if (options.containsKey("--supervised")) {
            Thread orphaned = new Thread(WorkerMain::exitAtEndOfInput, "regina-worker-supervisor");
            orphaned.setDaemon(true);
            orphaned.start();
        }
        if (worker.run() == Worker.Exit.STUCK_JOB) {
            // the stuck job's thread would keep the JVM alive; a SIGTERM at the same time already exits it
            Runtime.getRuntime().halt(STUCK);
        }
        // else a SIGTERM stopped it: the JVM is already shutting down, and exits once the hook returns
    }

    /**
     * Makes {@link LoggingThroughShutdown} the JVM's log manager, unless one is chosen already; it must come
     * before anything logs, and not from that class itself: initializing it would initialize the JDK's
     * manager, its superclass, first.
     */
    static void keepLoggingThroughShutdown() {
        if (System.getProperty("java.util.logging.manager") == null) {
            System.setProperty("java.util.logging.manager", LoggingThroughShutdown.class.getName());
        }
    }

    /** Reads stdin to its end, which is the supervisor gone, then stops the worker through its shutdown hook. */
    private static void exitAtEndOfInput() {
        try {
            while (System.in.read() >= 0) {
                // the supervisor sends nothing: only the end matters
            }
        } catch (IOException e) {
            // a broken pipe is an end too
        }
        System.exit(0);
    }

    static Map<String, String> parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (FLAGS.contains(args[i])) {
                options.put(args[i], "true");
            } else if (args[i].startsWith("--") && i + 1 < args.length) {
                options.put(args[i], args[++i]);
            } else {
                throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
            }
        }
        for (String required : List.of("--url", "--queue", "--job")) {
            if (!options.containsKey(required)) {
                throw new IllegalArgumentException(required + " is required");
            }
        }
        return options;
    }

    static Worker worker(Map<String, String> o) throws ReflectiveOperationException {
        ReginaClient client = ReginaClient.builder().urls(o.get("--url").split(","))
                .token(System.getenv("REGINA_TOKEN")).build();
        Class<?> type = Class.forName(o.get("--job"));
        if (!JobHandler.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(type.getName() + " does not implement " + JobHandler.class.getName());
        }
        JobHandler<?> handler = (JobHandler<?>) type.getConstructor().newInstance();
        Worker.Builder builder = Worker.builder(client, o.get("--queue"))
                .job(kind(o.getOrDefault("--kind", type.getName()), handler, options(o)))
                .consumerGroup(o.get("--group"))
                .prefetch(Integer.parseInt(o.getOrDefault("--prefetch", "1")))
                .leaseSeconds(Integer.parseInt(o.getOrDefault("--lease", "60")))
                .pollTimeout(seconds(o.getOrDefault("--poll", "10")))
                .asyncAcks(o.containsKey("--async-acks")).popAhead(o.containsKey("--pop-ahead"))
                .exitWhenStuck(true);
        String journal = o.get("--journal");
        if (journal != null) {
            builder.journal(new JournalLines(open(journal), client.json()));
        }
        try {
            return builder.build();
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    static JobOptions options(Map<String, String> o) {
        JobOptions options = JobOptions.defaults().tries(Integer.parseInt(o.getOrDefault("--tries", "1")))
                .maxExceptions(Integer.parseInt(o.getOrDefault("--max-exceptions", "0")))
                .failOnTimeout(o.containsKey("--fail-on-timeout"))
                .timeout(o.containsKey("--timeout") ? seconds(o.get("--timeout")) : JobOptions.defaults().timeout());
        if (o.containsKey("--backoff")) {
            options = options.backoff(Arrays.stream(o.get("--backoff").split(",")).map(String::trim)
                    .mapToLong(Long::parseLong).toArray());
        }
        return o.containsKey("--retry-until") ? options.retryUntil(seconds(o.get("--retry-until"))) : options;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static JobKind<?> kind(String name, JobHandler<?> handler, JobOptions options) {
        return JobKind.of(name, (Class) payloadType(handler.getClass()), (JobHandler) handler).options(options);
    }

    /** The {@code T} of the class's {@code JobHandler<T>}, searched up its superclasses. */
    static Class<?> payloadType(Class<?> handler) {
        for (Class<?> c = handler; c != null; c = c.getSuperclass()) {
            for (Type t : c.getGenericInterfaces()) {
                if (t instanceof ParameterizedType p && p.getRawType() == JobHandler.class
                        && p.getActualTypeArguments()[0] instanceof Class<?> payload) {
                    return payload;
                }
            }
        }
        throw new IllegalArgumentException(handler.getName() + " must implement JobHandler<T> with a concrete T");
    }

    private static Duration seconds(String value) {
        return Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
    }

    private static OutputStream open(String journal) {
        if (journal.equals("-")) {
            return System.out;
        }
        try {
            return new FileOutputStream(journal, true);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot open the journal " + journal + ": " + e.getMessage(), e);
        }
    }
}
