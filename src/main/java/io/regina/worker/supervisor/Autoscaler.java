package io.regina.worker.supervisor;

import io.regina.client.BrokerRefusedException;
import io.regina.client.Depth;
import io.regina.client.ReginaClient;
import io.regina.client.ReginaException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * The autoscaling of {@code queue:work} between {@code --min} and {@code --max}, on a thread of its own so a
 * slow or absent broker never holds up the supervisor's loop (which reads {@link #desired()} each tick).
 * Each round: keep this supervisor's slot in the {@link SupervisorRegistry} (every {@link #RENEW_EVERY}),
 * wait on the queue's watch up to {@link #WATCH} (it answers the moment a burst makes work deliverable),
 * read the group's depth, let the {@link ScalePolicy} set the group's target, and take this supervisor's
 * {@link Membership#share share} of it. Rounds are at least {@link #SPACING} apart: while work stays
 * deliverable the watch answers at once. When the broker cannot be reached the workers stay as they are.
 */
final class Autoscaler {
    static final Duration WATCH = Duration.ofSeconds(2);
    static final Duration SPACING = Duration.ofSeconds(1);
    /** A third of the registry's lease, so two renewals may fail before the slot is lost. */
    static final Duration RENEW_EVERY = Duration.ofSeconds(SupervisorRegistry.LEASE_SECONDS / 3);

    private final ReginaClient client;
    private final SupervisorOptions options;
    private final ScalePolicy policy;
    private final SupervisorRegistry registry;
    private final Consumer<String> log;
    private final Clock clock = Clock.systemUTC();
    private final Thread thread = new Thread(this::loop, "regina-work-scale");
    private volatile boolean running = true;
    private volatile int desired;
    private Membership membership = Membership.ALONE;
    private int registrySlot = -1;
    private Instant refreshedAt = Instant.EPOCH;
    private int target = -1;
    private String failing;

    Autoscaler(ReginaClient client, SupervisorOptions options, Consumer<String> log) {
        this.client = client;
        this.options = options;
        this.log = log;
        this.policy = new ScalePolicy(options.minWorkers(), options.maxWorkers(), options.prefetch(),
                options.coolDown());
        this.registry = new SupervisorRegistry(client, options.queue(), options.group());
        this.desired = options.minWorkers();
        thread.setDaemon(true);
    }

    /** How many workers this supervisor should run now. */
    int desired() {
        return desired;
    }

    void start() {
        thread.start();
    }

    /** Ends the rounds and hands the registry slot back, so the other supervisors take over its share at once. */
    void stop() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(Duration.ofSeconds(10).toMillis());
        try {
            registry.leave();
        } catch (ReginaException e) {
            log.accept("registry " + registry.queue() + ": slot not handed back (" + e.getMessage()
                    + "), it frees up when its lease expires");
        }
    }

    private void loop() {
        while (running) {
            Instant began = clock.instant();
            try {
                round();
                failing = null;
            } catch (ReginaException | IllegalStateException e) {
                if (!running) {
                    return;
                }
                if (failing == null) {
                    log.accept("scale: " + e.getMessage() + "; keeping " + desired + " workers until the broker answers");
                }
                failing = e.getMessage();
            }
            try {
                Thread.sleep(Math.max(0, Duration.between(clock.instant(), began.plus(SPACING)).toMillis()));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void round() {
        Instant now = clock.instant();
        if (!now.isBefore(refreshedAt.plus(RENEW_EVERY))) {
            Membership place = registry.refresh();
            if (!place.equals(membership) || registry.slot() != registrySlot) {
                log.accept("registry " + registry.queue() + ": slot " + registry.slot() + ", " + place.members()
                        + " supervisor(s) live, rank " + place.rank());
            }
            membership = place;
            registrySlot = registry.slot();
            refreshedAt = now;
        }
        boolean deliverable = client.watch(options.queue(), options.group(), List.of(), WATCH).deliverable();
        Depth depth = depth();
        int groupTarget = policy.decide(clock.instant(), deliverable, depth, membership.members());
        int share = Math.max(options.minWorkers(), Math.min(options.maxWorkers(), membership.share(groupTarget)));
        if (share != desired || groupTarget != target) {
            log.accept("scale: " + share + " workers here, group target " + groupTarget + " over "
                    + membership.members() + " supervisor(s) (ready " + depth.ready() + ", leased " + depth.leased()
                    + ", delayed " + depth.delayed() + ", drain " + (depth.drainSeconds() == null ? "unknown"
                            : depth.drainSeconds() + " s") + ")");
        }
        target = groupTarget;
        desired = share;
    }

    /** The group's depth; an empty one while the queue does not exist yet (a supervisor may start first). */
    private Depth depth() {
        try {
            return client.depth(options.queue(), options.group());
        } catch (BrokerRefusedException e) {
            if (e.status() != 404) {
                throw e;
            }
            return new Depth(options.queue(), options.group(), 0, 0, 0, 0, null, 0L);
        }
    }
}
