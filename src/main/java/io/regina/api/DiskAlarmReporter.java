package io.regina.api;

import io.regina.queue.BrokerView;
import io.regina.queue.ClusterInfo;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.DiskAlarms;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Twice a second: raises this node's disk alarm through the log while its data directory is under
 * its reserve (again every {@link DiskAlarms#REFRESH_MS}, so the alarm outlives a snapshot load but
 * not the node), clears it once there is room, and hands every node's alarm to {@link DiskReserve},
 * so the whole cluster refuses pushes while one node's disk is short. An alarm is a tiny entry, and
 * the reserve is there for it. Until a leader answers, the report waits for the next round.
 */
@Component
class DiskAlarmReporter implements DisposableBean {
    private static final Logger LOG = LoggerFactory.getLogger(DiskAlarmReporter.class);
    static final long PERIOD_MS = 500;

    private final DiskReserve disk;
    private final CommandBus bus;
    private final ClusterInfo cluster;
    private final LongSupplier millis;
    private final ScheduledExecutorService timer;
    private CompletableFuture<?> inFlight = CompletableFuture.completedFuture(null);
    private long raisedAt = Long.MIN_VALUE;

    @Autowired
    DiskAlarmReporter(DiskReserve disk, CommandBus bus, ClusterInfo cluster) {
        this(disk, bus, cluster, System::currentTimeMillis, Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "regina-disk-alarm");
            thread.setDaemon(true);
            return thread;
        }));
        timer.scheduleWithFixedDelay(this::reportLogged, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
    }

    DiskAlarmReporter(DiskReserve disk, CommandBus bus, ClusterInfo cluster, LongSupplier millis,
            ScheduledExecutorService timer) {
        this.disk = disk;
        this.bus = bus;
        this.cluster = cluster;
        this.millis = millis;
        this.timer = timer;
    }

    private void reportLogged() {
        try {
            report();
        } catch (RuntimeException notNow) {
            LOG.debug("disk alarm not reported this round: {}", notNow.toString());
        }
    }

    /** One round; runs on the timer's thread only. */
    void report() {
        List<String> raised = bus.read(BrokerView::diskAlarms);
        disk.clusterAlarms(raised);
        if (!inFlight.isDone()) {
            return;
        }
        // not status(): that lists the snapshot directory and builds every peer's view, twice a second
        String self = cluster.nodeId();
        long now = millis.getAsLong();
        if (disk.belowReserve()) {
            if (!raised.contains(self) || now - raisedAt >= DiskAlarms.REFRESH_MS) {
                if (!raised.contains(self)) {
                    LOG.warn("node {}: data directory under its reserve, raising the disk alarm: the cluster "
                            + "refuses pushes until space is freed", self);
                }
                raisedAt = now;
                inFlight = bus.submit(new Command.DiskAlarm(self, true));
            }
        } else if (raised.contains(self)) {
            LOG.info("node {}: data directory has room again, clearing the disk alarm", self);
            inFlight = bus.submit(new Command.DiskAlarm(self, false));
        }
    }

    @Override
    public void destroy() {
        timer.shutdownNow();
    }
}
