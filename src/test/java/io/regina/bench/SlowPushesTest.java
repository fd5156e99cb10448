package io.regina.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SlowPushesTest {

    private static final long MS = 1_000_000;

    @Test
    void listsOnlyThePushesAtOrOverTheThresholdWithTheirLagAndRequestTime(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("slow-pushes.txt");
        SlowPushes.Run run = new SlowPushes(file, 3).run(500, "Regina ack+pop");
        long at = System.nanoTime();
        run.pushed(at, at + MS / 10, at + 2 * MS);
        run.pushed(at, at + 2 * MS, at + 5 * MS);
        run.write();

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(1);
        String[] fields = lines.get(0).split(" ");
        assertThat(Instant.parse(fields[0])).isBetween(Instant.now().minusSeconds(5), Instant.now());
        assertThat(List.of(fields).subList(1, 5)).containsExactly("500", "Regina_ack+pop", "2000", "3000");
    }

    @Test
    void eachMeasuredRunAddsItsLinesToTheSameFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("slow-pushes.txt");
        SlowPushes slow = new SlowPushes(file, 3);
        for (String system : List.of("Redis (Laravel algorithm)", "RabbitMQ (quorum queue)")) {
            SlowPushes.Run run = slow.run(1000, system);
            run.pushed(0, 0, 3 * MS);
            run.write();
        }
        assertThat(Files.readAllLines(file)).extracting(line -> line.split(" ")[2])
                .containsExactly("Redis_(Laravel_algorithm)", "RabbitMQ_(quorum_queue)");
    }
}
