package io.regina.config;

/**
 * When to give the C heap's free memory back to the OS. Most of what glibc keeps is the JIT compilers': a C2
 * compilation's arenas go back to glibc when it ends, or within HotSpot's 5 s cleaning of its chunk pool, and
 * stay resident until trimmed. In the pool lane, where the JIT still works minutes in (a change of load brings
 * new types to a hot call and its compiled code is thrown away and compiled again), a trim every 4 s gave back
 * 6-18 MB each time (docs/benchmarks.md, session 32). So while the JIT compiles, and for
 * {@link #ARENA_RETURN_MS} after, a trim every {@link #COMPILING_INTERVAL_MS}; otherwise every
 * {@link #QUIET_INTERVAL_MS}, since what a trim gives back costs a page fault (and zeroing) when glibc hands it
 * out again. Not thread-safe: one timer thread asks.
 */
final class TrimSchedule {
    static final long LOOK_MS = 1_000;
    static final long COMPILING_INTERVAL_MS = 2_000;
    static final long QUIET_INTERVAL_MS = 10_000;
    /** How long after a compilation its arenas may still come back to glibc: HotSpot frees pooled chunks every 5 s. */
    static final long ARENA_RETURN_MS = 6_000;

    private long lastTrimMs;
    private long lastCompilingMs;
    private long compileMs = -1;

    TrimSchedule(long startMs) {
        this.lastTrimMs = startMs;
        this.lastCompilingMs = startMs - ARENA_RETURN_MS - 1;
    }

    /**
     * One look.
     *
     * @param totalCompileMs the JIT's total compile time so far, or -1 when this JVM does not say (then every
     *     {@link #QUIET_INTERVAL_MS})
     * @return whether to trim now
     */
    boolean trimAt(long nowMs, long totalCompileMs) {
        if (totalCompileMs >= 0 && compileMs >= 0 && totalCompileMs != compileMs) {
            lastCompilingMs = nowMs;
        }
        compileMs = totalCompileMs;
        boolean compiling = nowMs - lastCompilingMs <= ARENA_RETURN_MS;
        if (nowMs - lastTrimMs < (compiling ? COMPILING_INTERVAL_MS : QUIET_INTERVAL_MS)) {
            return false;
        }
        lastTrimMs = nowMs;
        return true;
    }
}
