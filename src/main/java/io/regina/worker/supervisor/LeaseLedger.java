package io.regina.worker.supervisor;

import io.regina.client.Ack;
import io.regina.worker.Journal;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one worker holds, read from its {@link Journal} lines: its leases not yet {@code done}, which of their
 * jobs it started, which it finished (with the ack it journaled) and which acks the broker answered. Fed by
 * the thread reading the worker's stdout, read by the supervisor's loop.
 */
final class LeaseLedger {

    /** A job as the {@code leased} event names it. */
    record Held(String transactionId, String partitionId, String consumerGroup, int attempts) {
    }

    /** The job the worker runs now, since {@code since}. */
    record Running(String leaseId, Held job, Instant since) {
    }

    /**
     * What is left of one lease when its worker is gone: acks journaled but not known to be applied, the job
     * that was running (null if none) and the jobs never started.
     */
    record Unsettled(String leaseId, List<Ack> unsent, Held interrupted, List<Held> unstarted) {
    }

    private static final class Lease {
        final Map<String, Held> jobs = new LinkedHashMap<>();
        final Set<String> started = new HashSet<>();
        final Map<String, Ack> finished = new LinkedHashMap<>();
        final Set<String> acked = new HashSet<>();
    }

    private final JsonMapper json;
    private final Map<String, Lease> leases = new LinkedHashMap<>();
    private Running running;

    LeaseLedger(JsonMapper json) {
        this.json = json;
    }

    /** One journal line; false when it is not one (a job printed on stdout), which changes nothing. */
    synchronized boolean apply(JsonNode line) {
        String leaseId = line.path("leaseId").asString("");
        String transactionId = line.path("transactionId").asString("");
        switch (line.path("event").asString("")) {
            case "leased" -> {
                Lease lease = leases.computeIfAbsent(leaseId, id -> new Lease());
                for (JsonNode job : line.path("jobs")) {
                    Held held = new Held(job.path("transactionId").asString(), job.path("partitionId").asString(),
                            job.path("consumerGroup").isNull() ? null : job.path("consumerGroup").asString(null),
                            job.path("attempts").asInt());
                    lease.jobs.put(held.transactionId(), held);
                }
            }
            case "started" -> {
                Lease lease = leases.get(leaseId);
                if (lease != null && lease.jobs.containsKey(transactionId)) {
                    lease.started.add(transactionId);
                    running = new Running(leaseId, lease.jobs.get(transactionId), instant(line));
                }
            }
            case "finished" -> {
                Lease lease = leases.get(leaseId);
                if (lease != null) {
                    lease.finished.put(transactionId, json.treeToValue(line.get("ack"), Ack.class));
                }
                if (running != null && running.job().transactionId().equals(transactionId)) {
                    running = null;
                }
            }
            case "acked" -> {
                Lease lease = leases.get(leaseId);
                if (lease != null) {
                    lease.acked.add(transactionId);
                }
            }
            case "done" -> leases.remove(leaseId);
            default -> {
                return false;
            }
        }
        return true;
    }

    synchronized Optional<Running> running() {
        return Optional.ofNullable(running);
    }

    synchronized int leasesHeld() {
        return leases.size();
    }

    /** Every lease not {@code done}, in the order they were leased. */
    synchronized List<Unsettled> unsettled() {
        List<Unsettled> all = new ArrayList<>();
        leases.forEach((leaseId, lease) -> {
            List<Ack> unsent = new ArrayList<>();
            lease.finished.forEach((tx, ack) -> {
                if (!lease.acked.contains(tx)) {
                    unsent.add(ack);
                }
            });
            Held interrupted = null;
            List<Held> unstarted = new ArrayList<>();
            for (Held job : lease.jobs.values()) {
                // a delivery refused without running (past its tries) is finished but never started
                if (lease.finished.containsKey(job.transactionId())) {
                    continue;
                }
                if (lease.started.contains(job.transactionId())) {
                    interrupted = job;
                } else {
                    unstarted.add(job);
                }
            }
            all.add(new Unsettled(leaseId, unsent, interrupted, unstarted));
        });
        return all;
    }

    private static Instant instant(JsonNode line) {
        try {
            return Instant.parse(line.path("at").asString());
        } catch (RuntimeException e) {
            return Instant.now();
        }
    }
}
