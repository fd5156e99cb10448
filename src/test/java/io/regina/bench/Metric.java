package io.regina.bench;

/** What a lane measures, with its unit and which way is better (for the ratio against the best peer). */
enum Metric {
    JOBS_PER_SECOND("jobs/s", "jobs/s", true),
    MESSAGES_PER_SECOND("messages/s", "msg/s", true),
    LATENCY_P50("dispatch → ack p50", "ms", false),
    LATENCY_P90("dispatch → ack p90", "ms", false),
    LATENCY_P95("dispatch → ack p95", "ms", false),
    LATENCY_P99("dispatch → ack p99", "ms", false),
    LATENCY_MAX("dispatch → ack max", "ms", false),
    PUSH_P50("push p50 (scheduled → durable)", "ms", false),
    PUSH_P95("push p95 (scheduled → durable)", "ms", false),
    PUSH_P99("push p99 (scheduled → durable)", "ms", false),
    ACHIEVED_RATE("achieved rate", "jobs/s", true),
    SHED("shed by the pacer", "jobs", false),
    CPU_PER_1000("broker CPU per 1,000 jobs", "s", false),
    CPU_PER_1000_MESSAGES("broker CPU per 1,000 messages", "s", false),
    COMPILER_SHARE("broker CPU in JIT compilers", "%", false),
    RSS("broker RSS after the run", "MiB", false),
    REQUESTS_PER_JOB("client requests per job", "req", false),
    ENTRIES_PER_JOB("Raft log entries per job", "entries", false),
    FSYNCS_PER_JOB("log fsyncs per job", "fsyncs", false);

    final String label;
    final String unit;
    final boolean higherIsBetter;

    Metric(String label, String unit, boolean higherIsBetter) {
        this.label = label;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
    }
}
