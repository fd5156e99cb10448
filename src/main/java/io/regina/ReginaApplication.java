package io.regina;

import io.regina.cli.ReginaCli;
import io.regina.config.HeapDefaults;
import io.regina.config.NativeHeapTrimmer;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Regina: one node of the broker (a single embedded Raft node unless {@code regina.peers} is set), or, when
 * the first argument is a {@code queue:*} command, the CLI ({@link ReginaCli}) without starting Spring.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ReginaApplication {

    /** Reactor Netty's own default is max(cores, 4) event loops. */
    private static final String EVENT_LOOPS = "reactor.netty.ioWorkerCount";

    public static void main(String[] args) {
        if (ReginaCli.handles(args)) {
            System.exit(ReginaCli.run(args));
        }
        if (System.getProperty(EVENT_LOOPS) == null) {
            System.setProperty(EVENT_LOOPS, Integer.toString(eventLoops(Runtime.getRuntime().availableProcessors())));
        }
        HeapDefaults.apply();
        NativeHeapTrimmer.start();
        SpringApplication.run(ReginaApplication.class, args);
    }

    /**
     * The broker's event loops, unless the property is set: one per two cores. The loops share the cores
     * with Raft's log worker, updater and leader threads, and fewer loops serve more requests per wake-up
     * (the answers an entry completes for many connections are one hand-over, a push serves a parked
     * long-poll on its own thread). On 2 cores one loop instead of two, alternated three times
     * (docs/benchmarks.md, session 14): broker CPU per job 11-20% lower in the empty-jobs and paced lanes,
     * paced p99 no higher.
     */
    static int eventLoops(int cores) {
        return Math.max(1, cores / 2);
    }
}
