package io.regina;

import io.regina.cli.ReginaCli;
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

    public static void main(String[] args) {
        if (ReginaCli.handles(args)) {
            System.exit(ReginaCli.run(args));
        }
        SpringApplication.run(ReginaApplication.class, args);
    }
}
