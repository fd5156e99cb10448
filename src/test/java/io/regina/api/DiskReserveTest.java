package io.regina.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DiskReserveTest {

    @TempDir
    Path dir;

    private final AtomicLong nanos = new AtomicLong();

    @Test
    void aReserveLargerThanTheFreeSpaceRefusesPushesWithDiskFull() {
        DiskReserve reserve = new DiskReserve(dir.toFile(), Long.MAX_VALUE, nanos::get);

        assertThatThrownBy(reserve::checkPush).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status().value()).isEqualTo(507);
            assertThat(e.code()).isEqualTo("DISK_FULL");
            assertThat(e.getMessage()).contains("regina.disk.reserve-bytes", "pops and acks still work");
        });
    }

    @Test
    void aReserveTheDiskHasOrNoReserveLetsPushesThrough() {
        assertThatCode(new DiskReserve(dir.toFile(), 1, nanos::get)::checkPush).doesNotThrowAnyException();
        assertThatCode(new DiskReserve(dir.toFile(), 0, nanos::get)::checkPush).doesNotThrowAnyException();
    }

    @Test
    void theFreeSpaceIsAskedAgainOnlyAfterTheRecheckInterval() throws Exception {
        File notYet = dir.resolve("data").toFile();
        DiskReserve reserve = new DiskReserve(notYet, Long.MAX_VALUE, nanos::get);
        reserve.checkPush(); // a data directory not created yet is not a full disk
        Files.createDirectory(notYet.toPath());

        nanos.addAndGet(DiskReserve.RECHECK_NANOS - 1);
        assertThatCode(reserve::checkPush).doesNotThrowAnyException();
        nanos.incrementAndGet();
        assertThatThrownBy(reserve::checkPush).isInstanceOf(ApiException.class);
    }

    @Test
    void anotherNodesDiskAlarmRefusesPushesHereTooNamingTheNode() {
        DiskReserve reserve = new DiskReserve(dir.toFile(), 1, nanos::get);
        reserve.clusterAlarms(List.of("n2"));

        assertThatThrownBy(reserve::checkPush).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status().value()).isEqualTo(507);
            assertThat(e.code()).isEqualTo("DISK_FULL");
            assertThat(e.getMessage()).contains("node n2", "regina.disk.reserve-bytes", "pops and acks still work");
        });
        reserve.clusterAlarms(List.of());
        assertThatCode(reserve::checkPush).doesNotThrowAnyException();
    }

    @Test
    void aNegativeReserveIsAMistake() {
        assertThatThrownBy(() -> new DiskReserve(dir.toFile(), -1, nanos::get))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
