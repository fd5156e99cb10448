package io.regina.worker;

import io.regina.client.LeaseExtension;
import io.regina.client.ReginaClient;
import io.regina.client.ReginaException;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the worker's leases alive while their jobs wait or run: every third of the lease length it extends
 * each held lease by a whole lease length, so a lease survives two failed renewals in a row. A lease the
 * broker no longer knows is dropped: its jobs will be refused their acks, and another worker runs them.
 */
final class LeaseKeeper implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LeaseKeeper.class.getName());

    private final ReginaClient client;
    private final int leaseSeconds;
    private final WorkerMetrics metrics;
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timer;

    LeaseKeeper(ReginaClient client, int leaseSeconds, WorkerMetrics metrics) {
        this.client = client;
        this.leaseSeconds = leaseSeconds;
        this.metrics = metrics;
        this.timer = Executors.newSingleThreadScheduledExecutor(WorkerThreads.named("regina-lease"));
        long periodMs = Math.max(1_000, leaseSeconds * 1_000L / 3);
        timer.scheduleAtFixedRate(this::renew, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    void hold(String leaseId) {
        if (leaseId != null && !leaseId.isEmpty()) {
            held.add(leaseId);
        }
    }

    void forget(String leaseId) {
        if (leaseId != null) {
            held.remove(leaseId);
        }
    }

    private void renew() {
        for (String leaseId : held) {
            try {
                LeaseExtension extension = client.extendLease(leaseId, leaseSeconds);
                metrics.leaseRenewed(extension.success());
                if (!extension.success()) {
                    LOG.log(System.Logger.Level.WARNING, "lease {0} lost: {1}", leaseId, extension.error());
                    held.remove(leaseId);
                }
            } catch (ReginaException e) {
                metrics.leaseRenewed(false);
                LOG.log(System.Logger.Level.WARNING, "lease " + leaseId + " not renewed, trying again", e);
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
