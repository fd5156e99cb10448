package io.regina.testing;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * Poll until something holds, as nats-server's {@code checkFor}: the probe runs at once, then after
 * pauses growing from 10 ms to 200 ms, until it holds or the time is up. An exception from the probe
 * counts as "not yet" (a node between leaders, a port not listening yet) and is kept as the last
 * observation; an {@link Error}, an assertion that cannot be retried, ends the wait at once. A timeout
 * fails with the description and what the probe last saw.
 */
public final class Eventually {

    private static final long FIRST_PAUSE_MS = 10;
    private static final long MAX_PAUSE_MS = 200;

    private Eventually() {
    }

    /** Something to look at; it may throw while the system is not ready. */
    @FunctionalInterface
    public interface Probe<T> {
        T get() throws Exception;
    }

    /** A condition to wait for; it may throw while the system is not ready. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Waits until the condition holds, or fails after {@code timeout}. */
    public static void await(Duration timeout, String description, Condition condition) {
        await(timeout, description, condition::holds, Boolean.TRUE::equals);
    }

    /** Waits until the probe's value passes {@code done} and returns that value, or fails after {@code timeout}. */
    public static <T> T await(Duration timeout, String description, Probe<T> probe, Predicate<? super T> done) {
        Observation<T> last = poll(timeout, probe, done);
        if (last.passed) {
            return last.value;
        }
        throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + description
                + "; last observed: " + (last.failure != null ? last.failure : last.value), last.failure);
    }

    /**
     * Waits at most {@code timeout} for the condition and says whether it held: for a test that goes on
     * either way (e.g. "let the producers run until 3,000 pushes or 30 s").
     */
    public static boolean within(Duration timeout, Condition condition) {
        return poll(timeout, condition::holds, Boolean.TRUE::equals).passed;
    }

    private static <T> Observation<T> poll(Duration timeout, Probe<T> probe, Predicate<? super T> done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = FIRST_PAUSE_MS;
        while (true) {
            Observation<T> seen = observe(probe, done);
            if (seen.passed || System.nanoTime() - deadline >= 0) {
                return seen;
            }
            try {
                Thread.sleep(Math.min(pause, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting", e);
            }
            pause = Math.min(2 * pause, MAX_PAUSE_MS);
        }
    }

    private static <T> Observation<T> observe(Probe<T> probe, Predicate<? super T> done) {
        try {
            T value = probe.get();
            return new Observation<>(done.test(value), value, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting", e);
        } catch (Exception e) {
            return new Observation<>(false, null, e);
        }
    }

    private record Observation<T>(boolean passed, T value, Exception failure) {
    }
}
