package io.regina;

import io.regina.cli.ReginaCli;
import io.regina.config.HeapDefaults;
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
        // One event loop per core: on a small machine the loops share the cores with Raft's threads, and
        // fewer loops serve more requests per wake-up (set the property to override).
        if (System.getProperty(EVENT_LOOPS) == null) {
            System.setProperty(EVENT_LOOPS, Integer.toString(Runtime.getRuntime().availableProcessors()));
        }
        HeapDefaults.apply();
        SpringApplication.run(ReginaApplication.class, args);
    }
}
