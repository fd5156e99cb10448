package io.regina.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lanes 1a and 1e: the leader of a loaded three-node cluster is frozen (SIGSTOP) for 5 s, then for
 * 45 s (past the election timeout and the queue's 5 s leases): a new leader is elected meanwhile,
 * the old one rejoins as a follower, and the history is clean.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class LeaderFreezeIT {

    @Test
    void aLeaderFrozenForFiveSecondsIsReplaced(@TempDir Path dir) throws Exception {
        frozenLeader(dir, "leader-freeze-5s", Duration.ofSeconds(5));
    }

    @Test
    void aLeaderFrozenForFortyFiveSecondsIsReplacedAndRejoins(@TempDir Path dir) throws Exception {
        frozenLeader(dir, "leader-freeze-45s", Duration.ofSeconds(45));
    }

    private static void frozenLeader(Path dir, String lane, Duration frozenFor) throws Exception {
        try (FaultRun run = FaultRun.start(dir, lane, 3)) {
            run.steady(Duration.ofSeconds(6));
            Duration electionGap = Freeze.leader(run, frozenFor);
            run.steady(Duration.ofSeconds(5));

            Report report = run.finish();

            report.assertClean();
            assertThat(report.acknowledged()).as("the load ran").isGreaterThan(100);
            // writes resume soon after the election, not when the frozen leader wakes (45 s) or when
            // forwards to it time out (they waited 10 s, 13 s of unavailability in all)
            assertThat(report.longestWriteGapMs()).as("the write unavailability around an election of "
                    + electionGap.toMillis() + " ms").isLessThan(electionGap.toMillis() + 8_000);
        }
    }
}
