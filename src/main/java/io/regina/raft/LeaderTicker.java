package io.regina.raft;

import io.regina.queue.Command;
import io.regina.queue.Result;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's clock: submits a {@code Tick} every tick interval, and sooner when a timer of the
 * state (a lease expiry, a delayed message) is due, so those fire within {@link #TIMER_CHECK_MS} on
 * an idle broker. One tick at a time; followers never tick (time comes to them in the log).
 */
final class LeaderTicker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderTicker.class);

    /** How often the tick thread looks for a due timer. */
    static final long TIMER_CHECK_MS = 25;

    private final RaftNodeSettings settings;
    private final LocalServer local;
    private final GroupCommitter committer;
    private final BrokerStateMachine<?> stateMachine;
    private final ScheduledExecutorService executor;
    private CompletableFuture<Result> lastTick = CompletableFuture.completedFuture(null);
    private long lastTickAt;

    LeaderTicker(RaftNodeSettings settings, LocalServer local, GroupCommitter committer,
            BrokerStateMachine<?> stateMachine, ScheduledExecutorService executor) {
        this.settings = settings;
        this.local = local;
        this.committer = committer;
        this.stateMachine = stateMachine;
        this.executor = executor;
    }

    /**
     * Starts looking for due ticks (unless ticks are disabled, interval 0) and for submissions not
     * committed in time ({@link GroupCommitter#expire}), which every node does.
     */
    void start() {
        long check = settings.tickIntervalMs() > 0 ? Math.min(TIMER_CHECK_MS, settings.tickIntervalMs())
                : TIMER_CHECK_MS;
        executor.scheduleWithFixedDelay(this::tick, check, check, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        try {
            committer.expire(System.nanoTime());
            RaftServer.Division d = local.division();
            if (settings.tickIntervalMs() <= 0 || local.isClosing() || d == null || !d.getInfo().isLeader()
                    || !lastTick.isDone()) {
                return;
            }
            long now = System.currentTimeMillis();
            if (now - lastTickAt < settings.tickIntervalMs() && stateMachine.nextTimerDue() > now) {
                return;
            }
            lastTickAt = now;
            lastTick = committer.submit(new Command.Tick());
            lastTick.whenComplete((r, e) -> {
                if (e != null && !local.isClosing()) {
                    LOG.debug("tick failed on {}", settings.nodeId(), e);
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("tick on {} failed", settings.nodeId(), e);
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
