package io.regina.raft;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SnapshotPaceTest {

    private final SnapshotPace pace = new SnapshotPace();

    @Test
    void withNoSnapshotYetTheFirstIsDueAtOnce() {
        assertThat(pace.due()).isTrue();
    }

    @Test
    void theNextIsDueOnceTheLogSinceTheCaptureOnDiskHoldsAnImagesWorthOfBytes() {
        pace.logged(300);
        pace.captured();
        pace.logged(600);
        pace.written(1_000);
        assertThat(pace.due()).as("600 bytes logged since the capture of a 1,000-byte image").isFalse();
        pace.logged(400);
        assertThat(pace.due()).isTrue();
    }

    @Test
    void aCaptureWhoseWriteFailedLeavesTheSnapshotDue() {
        pace.captured();
        pace.written(1_000);
        pace.logged(1_000);
        pace.captured();
        assertThat(pace.due()).as("not written: captured again at the next call").isTrue();
    }

    @Test
    void aCaptureTheHeapHadNoRoomForWaitsForAsMuchLogAgain() {
        pace.captured();
        pace.written(1_000);
        pace.logged(1_500);
        assertThat(pace.due()).isTrue();
        pace.deferred();
        assertThat(pace.due()).as("not at the next entry").isFalse();
        pace.logged(999);
        assertThat(pace.due()).isFalse();
        pace.logged(1);
        assertThat(pace.due()).as("an image's worth logged since").isTrue();
    }

    @Test
    void aLoadedSnapshotSetsTheImageSize() {
        pace.logged(5_000);
        pace.captured();
        pace.written(2_000);
        pace.logged(1_999);
        assertThat(pace.due()).isFalse();
        pace.logged(1);
        assertThat(pace.due()).isTrue();
    }
}
