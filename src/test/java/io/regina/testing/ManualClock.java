package io.regina.testing;

/** A clock that only moves when a test says so; the domain takes its {@code now} from here. */
public final class ManualClock {

    /** 2026-01-01T00:00:00Z, so ids and times look real. */
    public static final long START = 1_767_225_600_000L;

    private long now;

    public ManualClock() {
        this(START);
    }

    public ManualClock(long start) {
        this.now = start;
    }

    public long now() {
        return now;
    }

    public long advance(long millis) {
        now += millis;
        return now;
    }

    public long advanceSeconds(long seconds) {
        return advance(seconds * 1000L);
    }
}
