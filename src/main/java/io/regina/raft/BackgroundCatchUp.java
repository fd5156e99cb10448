package io.regina.raft;

import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;

/**
 * One daemon thread that does the work the state leaves for after its applies (the failed-jobs word
 * index) in slices, each under the state's write lock, so that applies get the lock between slices
 * instead of waiting behind the whole of it. It starts at the first {@link #wake} and sleeps when a
 * slice reports nothing left.
 */
final class BackgroundCatchUp implements AutoCloseable {

    private final String name;
    /** Does one slice under the lock, and answers whether work is left; yields to waiting applies first. */
    private final BooleanSupplier slice;
    private final Semaphore work = new Semaphore(0);
    private Thread thread;
    private volatile boolean closed;

    BackgroundCatchUp(String name, BooleanSupplier slice) {
        this.name = name;
        this.slice = slice;
    }

    /** There may be work: the thread does it soon (and is started if it is not running). */
    synchronized void wake() {
        if (closed) {
            return;
        }
        if (thread == null) {
            thread = new Thread(this::run, name);
            thread.setDaemon(true);
            thread.start();
        }
        if (work.availablePermits() == 0) {
            work.release();
        }
    }

    private void run() {
        try {
            while (!closed) {
                work.acquire();
                work.drainPermits();
                while (!closed && slice.getAsBoolean()) {
                    Thread.onSpinWait();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (thread != null) {
            thread.interrupt();
        }
    }
}
