package io.regina.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lane 3f, the randomised nemesis: for {@code faults.nemesis.seconds} (60 by default, the CI
 * schedule) it picks a fault from {@link Nemesis} and a quiet time of 2–8 s at random, over and
 * over, under load, then checks the whole history. The seed is printed; {@code -Dfaults.seed=S}
 * replays the same schedule (the same faults, nodes and pauses in the same order). The long run, as
 * README says: {@code mvn -B -Pfaults verify -Dit.test=NemesisIT -Dfaults.nemesis.seconds=1800}.
 */
class NemesisIT {

    @Test
    void aSeededScheduleOfFaultsLosesNothing(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("faults.seed", new Random().nextLong());
        Duration length = Duration.ofSeconds(Long.getLong("faults.nemesis.seconds", 60));
        System.out.println("NEMESIS seed=" + seed + " seconds=" + length.toSeconds() + " (replay: -Dfaults.seed="
                + seed + " -Dfaults.nemesis.seconds=" + length.toSeconds() + ")");
        Random random = new Random(seed);
        Nemesis[] faults = Nemesis.values();
        try (FaultRun run = FaultRun.start(dir, "nemesis", 3)) {
            run.figure("seed", seed);
            long end = System.nanoTime() + length.toNanos();
            int applied = 0;
            while (System.nanoTime() < end) {
                run.steady(Duration.ofMillis(2_000 + random.nextInt(6_000)));
                String done = faults[random.nextInt(faults.length)].apply(run, random);
                applied++;
                System.out.println("NEMESIS seed=" + seed + " fault " + applied + ": " + done);
            }
            run.figure("faults", applied);
            run.steady(Duration.ofSeconds(3));

            Report report = run.finish();

            report.assertClean();
            assertThat(report.acknowledged()).isGreaterThan(100);
        }
    }
}
