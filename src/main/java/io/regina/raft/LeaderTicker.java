package io.regina.raft;

import io.regina.queue.Command;
import io.regina.queue.Result;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's clock: submits a {@code Tick} when a timer of the state (a lease expiry, a delayed message) is
 * due, so those fire on time on an idle broker, and every tick interval while the state needs it (retention,
 * a disk alarm: {@link StateAdapter#needsRegularTicks}). One tick at a time; followers never tick (time comes
 * to them in the log). A broker with neither writes nothing while idle: a tick a second was an entry, an
 * fsync and ~2.5 ms of CPU a second on every thread it crossed.
 *
 * <p>A leader with no tick in flight sleeps until the next tick or timer is due, at most
 * {@link #EXPIRE_CHECK_MS}, instead of looking every {@link #TIMER_CHECK_MS}: an idle broker woke 40 times a
 * second for nothing (~1% of a core, a few percent of the broker's CPU at 200 jobs/s). An entry that sets an
 * earlier timer says so ({@link #timerDue}), and the next look moves up to it. Followers, a leader whose
 * tick is in flight and a node with ticks off still look every {@link #TIMER_CHECK_MS}: a node that becomes
 * leader fires what is overdue within that.
 */
final class LeaderTicker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderTicker.class);

    /** How soon a node that is not waiting for a known due time looks again. */
    static final long TIMER_CHECK_MS = 25;

    /** The longest a leader sleeps: submissions not committed in time are failed at this granularity. */
    static final long EXPIRE_CHECK_MS = 1000;

    /** {@link #plannedAt} while a look runs: what entries announce meanwhile is kept for its plan. */
    private static final long LOOKING = Long.MIN_VALUE;

    private final RaftNodeSettings settings;
    private final LocalServer local;
    private final GroupCommitter committer;
    private final BrokerStateMachine<?> stateMachine;
    private final DivisionWatch watch;
    private final ScheduledExecutorService executor;
    private volatile CompletableFuture<Result> lastTick = CompletableFuture.completedFuture(null);
    private long lastTickAt;

    /** True while this node sleeps until a due time it computed from the state (a leader, no tick in flight). */
    private volatile boolean sleepingUntilDue;
    private final Object plan = new Object();
    private ScheduledFuture<?> nextLook;
    /** When the next look is scheduled (epoch ms), or {@link #LOOKING}; written under {@link #plan}. */
    private volatile long plannedAt = LOOKING;
    /** The earliest due time announced while a look ran. */
    private long announced = Long.MAX_VALUE;
    private boolean closed;

    LeaderTicker(RaftNodeSettings settings, LocalServer local, GroupCommitter committer,
            BrokerStateMachine<?> stateMachine, DivisionWatch watch, ScheduledExecutorService executor) {
        this.settings = settings;
        this.local = local;
        this.committer = committer;
        this.stateMachine = stateMachine;
        this.watch = watch;
        this.executor = executor;
    }

    /**
     * Starts looking for due ticks, for submissions not committed in time ({@link GroupCommitter#expire}) and
     * for a division that stopped by itself ({@link DivisionWatch}).
     */
    void start() {
        synchronized (plan) {
            scheduleAt(System.currentTimeMillis() + TIMER_CHECK_MS);
        }
    }

    /**
     * The state's earliest timer after an applied entry (epoch ms; on the apply thread, so cheap when nothing
     * changes): a sleeping leader looks again then if that is sooner than it planned.
     */
    void timerDue(long due) {
        long planned = plannedAt;
        if (!sleepingUntilDue || planned != LOOKING && due >= planned) {
            return;
        }
        synchronized (plan) {
            if (plannedAt == LOOKING) {
                announced = Math.min(announced, due);
            } else if (due < plannedAt) {
                scheduleAt(due);
            }
        }
    }

    /**
     * When a leader with no tick in flight looks next (epoch ms): the next regular tick ({@code Long.MAX_VALUE}
     * when the state needs none), the next timer, or the expiry check.
     */
    static long nextLook(long now, long regularTickDue, long timerDue) {
        return Math.min(Math.min(regularTickDue, timerDue), now + EXPIRE_CHECK_MS);
    }

    private void look() {
        synchronized (plan) {
            plannedAt = LOOKING;
            announced = Long.MAX_VALUE;
        }
        long next = System.currentTimeMillis() + TIMER_CHECK_MS;
        try {
            next = tick();
        } catch (RuntimeException e) {
            LOG.warn("tick on {} failed", settings.nodeId(), e);
            sleepingUntilDue = false;
        } finally {
            synchronized (plan) {
                scheduleAt(Math.min(next, announced));
            }
        }
    }

    /** Ticks if due; returns when to look next. */
    private long tick() {
        watch.check();
        committer.expire(System.nanoTime());
        long now = System.currentTimeMillis();
        RaftServer.Division d = local.division();
        if (settings.tickIntervalMs() <= 0 || local.isClosing() || d == null || !d.getInfo().isLeader()
                || !lastTick.isDone()) {
            sleepingUntilDue = false;
            return now + TIMER_CHECK_MS;
        }
        sleepingUntilDue = true; // before the state is read: an entry applied from here on announces its timer
        long due = stateMachine.nextTimerDue();
        long regularDue = stateMachine.needsRegularTicks() ? lastTickAt + settings.tickIntervalMs() : Long.MAX_VALUE;
        if (now < regularDue && due > now) {
            return nextLook(now, regularDue, due);
        }
        sleepingUntilDue = false;
        lastTickAt = now;
        CompletableFuture<Result> tick = committer.submit(new Command.Tick());
        lastTick = tick;
        tick.whenComplete((r, e) -> {
            if (e != null && !local.isClosing()) {
                LOG.debug("tick failed on {}", settings.nodeId(), e);
            }
        });
        return now + TIMER_CHECK_MS;
    }

    /** Under {@link #plan}: the next look at {@code at} (epoch ms), replacing the one scheduled. */
    private void scheduleAt(long at) {
        if (closed) {
            return;
        }
        if (nextLook != null) {
            nextLook.cancel(false);
        }
        plannedAt = at;
        long delay = Math.max(1, at - System.currentTimeMillis());
        nextLook = executor.schedule(this::look, delay, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        synchronized (plan) {
            closed = true;
        }
        executor.shutdownNow();
    }
}
