package io.regina.worker.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Slows down restarts when workers keep crashing (a broken classpath, a broker that refuses them): after
 * {@code threshold} crashes within {@code window} the circuit opens, and each worker start waits a backoff
 * that doubles with every crash while it stays open, up to {@code longest}. A window without crashes closes
 * it. Deaths the supervisor caused (a timeout kill, a recycle, a deploy) are not crashes.
 */
final class CrashCircuit {
    private final int threshold;
    private final Duration window;
    private final Duration first;
    private final Duration longest;
    private final Deque<Instant> crashes = new ArrayDeque<>();
    private int openCrashes;

    CrashCircuit(int threshold, Duration window, Duration first, Duration longest) {
        this.threshold = threshold;
        this.window = window;
        this.first = first;
        this.longest = longest;
    }

    /** Records a crash; returns the wait it imposes on the next start (zero while the circuit is closed). */
    synchronized Duration crashed(Instant at) {
        forgetBefore(at);
        crashes.addLast(at);
        if (crashes.size() < threshold) {
            openCrashes = 0;
            return Duration.ZERO;
        }
        openCrashes++;
        Duration wait = first.multipliedBy(1L << Math.min(openCrashes - 1, 20));
        return wait.compareTo(longest) > 0 ? longest : wait;
    }

    private void forgetBefore(Instant now) {
        while (!crashes.isEmpty() && !crashes.peekFirst().isAfter(now.minus(window))) {
            crashes.removeFirst();
        }
    }
}
