package io.regina.testing;

import org.springframework.test.context.DynamicPropertyRegistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/** Settings for a broker started by {@code @SpringBootTest}: a fresh data directory and a free Raft port. */
public final class TestNode {
    private TestNode() {
    }

    public static void register(DynamicPropertyRegistry registry) {
        String dataDir;
        try {
            dataDir = Files.createTempDirectory("regina-it").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        registry.add("regina.data-dir", () -> dataDir);
        registry.add("regina.raft-port", FreePorts::next);
    }
}
