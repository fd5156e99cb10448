package io.regina;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Regina: one node of the broker (a single embedded Raft node unless {@code regina.peers} is set). */
@SpringBootApplication
@ConfigurationPropertiesScan
public class ReginaApplication {

    public static void main(String[] args) {
        SpringApplication.run(ReginaApplication.class, args);
    }
}
