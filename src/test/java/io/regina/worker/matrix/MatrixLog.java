package io.regina.worker.matrix;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

/** What the matrix jobs wrote to {@code MATRIX_LOG}: one {@link Event} per line. */
final class MatrixLog {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> ENDS = List.of("completed", "threw", "released", "failed_by_job");

    record Event(String jobId, int attempt, String event, long pid, Instant at) {
    }

    /** One attempt: its start, and its end event, if it wrote one (a killed attempt does not). */
    record Attempt(String jobId, int attempt, long pid, Instant started, Optional<Event> end) {
    }

    private final Path file;

    MatrixLog(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    List<Event> events() throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<Event> events = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            JsonNode n = JSON.readTree(line);
            events.add(new Event(n.get("job_id").asString(), n.get("attempt").asInt(), n.get("event").asString(),
                    n.get("pid").asLong(), Instant.parse(n.get("at").asString())));
        }
        return events;
    }

    long count(String jobId, String event) throws IOException {
        return events().stream().filter(e -> e.jobId().equals(jobId) && e.event().equals(event)).count();
    }

    /** How many {@code event} lines each job wrote, in one read of the log. */
    Map<String, Long> counts(String event) throws IOException {
        return events().stream().filter(e -> e.event().equals(event))
                .collect(Collectors.groupingBy(Event::jobId, Collectors.counting()));
    }

    /** The attempts of {@code jobId} in the order they started. */
    List<Attempt> attempts(String jobId) throws IOException {
        List<Event> events = events().stream().filter(e -> e.jobId().equals(jobId)).toList();
        List<Attempt> attempts = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            Event start = events.get(i);
            if (!start.event().equals("started")) {
                continue;
            }
            Optional<Event> end = events.subList(i + 1, events.size()).stream()
                    .takeWhile(e -> !e.event().equals("started"))
                    .filter(e -> ENDS.contains(e.event()) && e.pid() == start.pid()).findFirst();
            attempts.add(new Attempt(jobId, start.attempt(), start.pid(), start.at(), end));
        }
        attempts.sort(Comparator.comparing(Attempt::started));
        return attempts;
    }

    /**
     * The first pair of attempts of one job that overlapped, described, or empty. An attempt without an end
     * event ended when its worker died: {@code deathOf} gives that time for a pid (null when it is unknown).
     */
    Optional<String> overlap(LongFunction<Instant> deathOf) throws IOException {
        for (String jobId : events().stream().map(Event::jobId).distinct().toList()) {
            List<Attempt> attempts = attempts(jobId);
            for (int i = 1; i < attempts.size(); i++) {
                Attempt before = attempts.get(i - 1);
                Instant ended = before.end().map(Event::at).orElseGet(() -> deathOf.apply(before.pid()));
                Attempt next = attempts.get(i);
                if (ended == null || ended.isAfter(next.started())) {
                    return Optional.of(jobId + " attempt " + next.attempt() + " started at " + next.started()
                            + " before attempt " + before.attempt() + " ended (" + ended + ")");
                }
            }
        }
        return Optional.empty();
    }

    static Map<String, Object> payload(String id, String mode, long sleepMs, int allocateMib) {
        return Map.of("id", id, "mode", mode, "sleepMs", sleepMs, "allocateMib", allocateMib);
    }
}
