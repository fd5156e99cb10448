package io.regina.worker.supervisor;

import io.regina.client.ReginaClient;
import io.regina.worker.WorkerMain;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;

/**
 * {@code queue:work}: keeps {@code --min} to {@code --max} {@link WorkerMain} JVMs running on one queue, and
 * finishes the business of each one that dies, from its journal ({@link HandBack}).
 *
 * <ul>
 * <li>How many: a fixed number, or, when {@code --min} is below {@code --max}, what the {@link Autoscaler}
 *     says from the group's depth, shared with the other supervisors of the queue. The {@link SlotPlan}
 *     chooses the slots: a slot let go has its worker stopped once it is idle, and is not refilled.</li>
 * <li>A job still running {@link #TIMEOUT_MARGIN} past {@code timeout} (the worker interrupted it at
 *     {@code timeout} and it did not end) gets its worker killed and replaced: not a crash. Its attempt counts
 *     and it comes back after the backoff; a delivery past its tries is refused by the next worker and fails.</li>
 * <li>A worker over {@code memoryMb} resident is sent SIGTERM: it finishes its job, hands back its prefetched
 *     jobs uncharged and exits; it is replaced.</li>
 * <li>Any other death is a crash: its journal is handed back and it is replaced, unless {@link CrashCircuit}
 *     says to wait. Exit {@value WorkerMain#STUCK} (a job that ignored its interrupt, or ran out of heap) is the job's
 *     doing, and is not counted.</li>
 * <li>Leases are renewed by the workers themselves (their {@code LeaseKeeper}) while they live; once a worker
 *     is dead the supervisor settles its leases at once instead of keeping them.</li>
 * <li>{@link #stop()} (SIGTERM on the supervisor, a deploy): every worker gets SIGTERM, may finish its job
 *     within {@code shutdownGrace}, hands back the rest; what is still alive past the grace (plus the
 *     worker's poll and its own stop) is killed and settled from its journal.</li>
 * </ul>
 */
public final class Supervisor {
    static final Duration TIMEOUT_MARGIN = Duration.ofMillis(500);
    private static final Duration TICK = Duration.ofMillis(100);
    private static final Duration MEMORY_EVERY = Duration.ofSeconds(1);
    /** Past its grace and its poll, how long a stopping worker may take to end its job and send its acks. */
    private static final Duration STOP_SLACK = Duration.ofSeconds(5);

    private final SupervisorOptions options;
    private final HandBack handBack;
    private final CrashCircuit circuit = new CrashCircuit(5, Duration.ofSeconds(60), Duration.ofSeconds(1),
            Duration.ofSeconds(60));
    private final ReginaClient client;
    private final PrintStream out;
    private final Clock clock = Clock.systemUTC();
    private final WorkerProcess[] slots;
    private final Instant[] notBefore;
    private boolean[] wanted;
    /** Null when the size is fixed. */
    private final Autoscaler autoscaler;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile boolean stopping;
    private Instant memoryCheckedAt = Instant.EPOCH;

    public Supervisor(SupervisorOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.client = ReginaClient.builder().urls(options.url().split(",")).token(options.token()).build();
        this.handBack = new HandBack(client, this::log);
        this.slots = new WorkerProcess[options.maxWorkers()];
        this.notBefore = new Instant[options.maxWorkers()];
        Arrays.fill(notBefore, Instant.EPOCH);
        this.wanted = SlotPlan.first(options.minWorkers(), options.maxWorkers());
        this.autoscaler = options.autoscales() ? new Autoscaler(client, options, this::log) : null;
    }

    /**
     * Runs the workers until {@link #stop()}, which a SIGTERM or SIGINT calls (a shutdown hook that ends the
     * JVM with exit 0 once the deploy is done). Returns 0.
     */
    public int runUntilSignalled() throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.flush();
            Runtime.getRuntime().halt(0);
        }, "regina-work-deploy"));
        return run();
    }

    /** Supervises until {@link #stop()}; returns 0 once every worker is gone and settled. */
    public int run() throws InterruptedException {
        log("supervising " + (options.autoscales() ? options.minWorkers() + " to " + options.maxWorkers()
                : Integer.toString(options.minWorkers())) + " workers on " + options.queue()
                + (options.group() == null ? "" : " group " + options.group()));
        try {
            if (autoscaler != null) {
                autoscaler.start();
            }
            while (!stopping) {
                if (autoscaler != null) {
                    resize(autoscaler.desired());
                }
                for (int slot = 0; slot < slots.length; slot++) {
                    tend(slot);
                }
                checkMemory();
                Thread.sleep(TICK.toMillis());
            }
            if (autoscaler != null) {
                autoscaler.stop();
            }
            deploy();
        } finally {
            ended.countDown();
        }
        return 0;
    }

    /** The deploy: returns once {@link #run()} has stopped every worker. */
    public void stop() throws InterruptedException {
        stopping = true;
        ended.await();
    }

    private void tend(int slot) throws InterruptedException {
        WorkerProcess worker = slots[slot];
        if (worker == null) {
            if (wanted[slot] && !clock.instant().isBefore(notBefore[slot])) {
                slots[slot] = launch(slot);
            }
            return;
        }
        if (!worker.alive()) {
            slots[slot] = null;
            notBefore[slot] = clock.instant().plus(reap(worker));
            return;
        }
        worker.ledger().running().ifPresent(job -> {
            if (clock.instant().isAfter(job.since().plus(options.timeout()).plus(TIMEOUT_MARGIN))
                    && worker.ending() != WorkerProcess.Ending.TIMEOUT) {
                log("worker " + slot + " pid " + worker.pid() + " killed: job " + job.job().transactionId()
                        + " ran past its timeout of " + options.timeout().toSeconds() + " s");
                worker.kill(WorkerProcess.Ending.TIMEOUT);
            }
        });
    }

    /** Moves the wanted slots toward {@code desired}; a worker whose slot is let go is asked to stop. */
    private void resize(int desired) {
        SlotPlan.Occupant[] occupants = new SlotPlan.Occupant[slots.length];
        for (int slot = 0; slot < slots.length; slot++) {
            WorkerProcess worker = slots[slot];
            occupants[slot] = worker == null ? SlotPlan.Occupant.EMPTY
                    : worker.ending() != null || !worker.alive() ? SlotPlan.Occupant.LEAVING
                    : worker.ledger().leasesHeld() == 0 && worker.ledger().running().isEmpty() ? SlotPlan.Occupant.IDLE
                    : SlotPlan.Occupant.BUSY;
        }
        boolean[] next = SlotPlan.resize(wanted, occupants, desired);
        for (int slot = 0; slot < slots.length; slot++) {
            WorkerProcess worker = slots[slot];
            if (wanted[slot] && !next[slot] && worker != null && worker.alive() && worker.ending() == null) {
                log("worker " + slot + " pid " + worker.pid() + " let go: " + desired + " workers wanted");
                worker.stopGracefully(WorkerProcess.Ending.SCALE_DOWN);
            }
        }
        wanted = next;
    }

    private WorkerProcess launch(int slot) {
        try {
            WorkerProcess worker = WorkerProcess.start(slot, WorkerCommand.of(options),
                    options.token() == null ? Map.of() : Map.of("REGINA_TOKEN", options.token()), client.json());
            log("worker " + slot + " pid " + worker.pid() + " started");
            return worker;
        } catch (IOException e) {
            log("worker " + slot + " could not start: " + e.getMessage());
            notBefore[slot] = clock.instant().plus(crash(clock.instant()));
            return null;
        }
    }

    /** Settles a dead worker's leases; returns how long its slot waits before a new worker. */
    private Duration reap(WorkerProcess worker) throws InterruptedException {
        worker.awaitJournal();
        WorkerProcess.Ending why = worker.ending();
        int exit = worker.exitValue();
        boolean crashed = why == null && exit != 0 && exit != WorkerMain.STUCK;
        log("worker " + worker.slot() + " pid " + worker.pid() + " exited " + exit + " ("
                + (why != null ? why.name().toLowerCase(Locale.ROOT) : crashed ? "crash"
                        : exit == WorkerMain.STUCK ? "its job: stuck past its timeout, or out of heap" : "its own stop")
                + ")");
        for (LeaseLedger.Unsettled lease : worker.ledger().unsettled()) {
            handBack.settle(lease, why == WorkerProcess.Ending.TIMEOUT && lease.interrupted() != null
                    ? options.backoffAfter(lease.interrupted().attempts()) : Duration.ZERO);
        }
        return crashed ? crash(clock.instant()) : Duration.ZERO;
    }

    private Duration crash(Instant at) {
        Duration wait = circuit.crashed(at);
        if (!wait.isZero()) {
            log("crash circuit open: workers crash repeatedly, next start in " + wait.toMillis() + " ms");
        }
        return wait;
    }

    private void checkMemory() {
        Instant now = clock.instant();
        if (now.isBefore(memoryCheckedAt.plus(MEMORY_EVERY))) {
            return;
        }
        memoryCheckedAt = now;
        for (WorkerProcess worker : slots) {
            if (worker == null || worker.ending() != null) {
                continue;
            }
            OptionalLong mib = worker.residentMib();
            if (mib.isPresent() && mib.getAsLong() > options.memoryMb()) {
                log("worker " + worker.slot() + " pid " + worker.pid() + " recycled: " + mib.getAsLong()
                        + " MiB resident, over --memory " + options.memoryMb());
                worker.stopGracefully(WorkerProcess.Ending.MEMORY);
            }
        }
    }

    private void deploy() throws InterruptedException {
        log("stopping: SIGTERM to every worker, grace " + options.shutdownGrace().toSeconds() + " s");
        for (WorkerProcess worker : slots) {
            if (worker != null) {
                worker.stopGracefully(WorkerProcess.Ending.DEPLOY);
            }
        }
        Instant deadline = clock.instant().plus(options.shutdownGrace()).plus(options.poll()).plus(STOP_SLACK);
        while (true) {
            boolean left = false;
            for (int slot = 0; slot < slots.length; slot++) {
                WorkerProcess worker = slots[slot];
                if (worker == null) {
                    continue;
                }
                if (!worker.alive()) {
                    slots[slot] = null;
                    reap(worker);
                } else if (clock.instant().isAfter(deadline)) {
                    log("worker " + slot + " pid " + worker.pid() + " killed: still running past the grace");
                    worker.kill(WorkerProcess.Ending.DEPLOY);
                    left = true;
                } else {
                    left = true;
                }
            }
            if (!left) {
                break;
            }
            Thread.sleep(TICK.toMillis());
        }
        log("stopped");
    }

    private void log(String event) {
        out.println(clock.instant() + " regina work: " + event);
        out.flush();
    }
}
