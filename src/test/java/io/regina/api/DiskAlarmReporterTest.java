package io.regina.api;

import io.regina.queue.BrokerView;
import io.regina.queue.ClusterStatus;
import io.regina.queue.DiskAlarms;
import io.regina.testing.InMemoryCommandBus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DiskAlarmReporterTest {

    @TempDir
    Path tmp;

    private final AtomicLong nanos = new AtomicLong();
    private final AtomicLong millis = new AtomicLong(1_000_000);
    private final InMemoryCommandBus bus = new InMemoryCommandBus();
    private final ScheduledExecutorService unused = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        unused.shutdownNow();
    }

    private DiskAlarmReporter reporter(DiskReserve disk, String node) {
        return new DiskAlarmReporter(disk, bus, () -> new ClusterStatus(node, "FOLLOWER", "n1", 1, 0, 0, -1, List.of()),
                millis::get, unused);
    }

    /** A reserve no disk has, on a data directory that exists only while {@code short} is wanted. */
    private DiskReserve shortWhileDirectoryExists(Path data) {
        return new DiskReserve(data.toFile(), Long.MAX_VALUE, nanos::get);
    }

    private void recheck() {
        nanos.addAndGet(DiskReserve.RECHECK_NANOS);
    }

    @Test
    void aShortDiskRaisesTheAlarmForTheWholeClusterAndRoomClearsIt() throws Exception {
        Path data = tmp.resolve("data");
        DiskReserve shortDisk = shortWhileDirectoryExists(data);
        DiskReserve otherNode = new DiskReserve(tmp.toFile(), 1, nanos::get);
        DiskAlarmReporter n2 = reporter(shortDisk, "n2");
        DiskAlarmReporter n1 = reporter(otherNode, "n1");

        Files.createDirectory(data);
        recheck();
        n2.report();
        n1.report();

        assertThat(bus.read(BrokerView::diskAlarms)).containsExactly("n2");
        assertThatThrownBy(otherNode::checkPush).isInstanceOf(ApiException.class).hasMessageContaining("node n2");

        Files.delete(data);
        recheck();
        n2.report();
        n1.report();

        assertThat(bus.read(BrokerView::diskAlarms)).isEmpty();
        otherNode.checkPush();
    }

    @Test
    void aDiskThatStaysShortRefreshesItsAlarmOnlyEveryRefreshPeriod() throws Exception {
        Path data = tmp.resolve("data");
        DiskAlarmReporter n2 = reporter(shortWhileDirectoryExists(data), "n2");
        Files.createDirectory(data);
        recheck();
        n2.report();
        long entries = appliedCommands();

        millis.addAndGet(DiskAlarms.REFRESH_MS - 1);
        n2.report();
        assertThat(appliedCommands()).as("no new entry before the refresh is due").isEqualTo(entries);

        millis.incrementAndGet();
        n2.report();
        assertThat(appliedCommands()).isEqualTo(entries + 1);
    }

    private long appliedCommands() {
        return bus.submitted();
    }
}
