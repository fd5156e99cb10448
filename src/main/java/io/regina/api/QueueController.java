package io.regina.api;

import io.regina.api.dto.QueueBodies;
import io.regina.queue.Command;
import io.regina.queue.Rejection;
import io.regina.queue.Result;
import io.regina.queue.Views;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;

/** Configure, delete and inspect queues (API.md A2, A3 and B2). */
@RestController
class QueueController {
    private final Broker broker;

    QueueController(Broker broker) {
        this.broker = broker;
    }

    @PostMapping("/api/v1/configure")
    Mono<QueueBodies.Configured> configure(@JsonBody("configure") QueueBodies.ConfigureRequest body) {
        String queue = QueueNames.check(FieldChecks.required(body.queue(), "queue"));
        Command.Configure command = new Command.Configure(queue, body.namespace(), body.task(),
                QueueOptionsJson.read(body.options()));
        return broker.submit(command, Result.Configured.class).map(c -> new QueueBodies.Configured(true, c.queueId(),
                c.partitionId(), c.queue(), c.namespace(), c.task(), QueueOptionsJson.write(c.options())));
    }

    @DeleteMapping("/api/v1/resources/queues/{queue}")
    Mono<QueueBodies.Deleted> delete(@PathVariable String queue) {
        return broker.submit(new Command.DeleteQueue(queue), Result.QueueDeleted.class)
                .map(d -> new QueueBodies.Deleted(true, d.queue(), d.existed()));
    }

    @GetMapping("/api/v1/resources/queues")
    QueueBodies.QueueList list() {
        List<QueueBodies.Summary> queues = new ArrayList<>();
        for (Views.QueueSummary summary : broker.read(s -> s.queues())) {
            queues.add(summary(summary));
        }
        return new QueueBodies.QueueList(queues);
    }

    @GetMapping("/api/v1/resources/queues/{queue}")
    QueueBodies.Detail show(@PathVariable String queue) {
        Views.QueueSummary summary = broker.read(s -> s.queue(queue));
        if (summary == null) {
            throw ApiException.of(Rejection.QUEUE_NOT_FOUND, queue);
        }
        List<QueueBodies.Partition> partitions = new ArrayList<>();
        for (Views.PartitionView partition : broker.read(s -> s.partitions(queue, 0, 1000))) {
            List<QueueBodies.GroupPosition> groups = new ArrayList<>();
            for (Views.GroupPosition position : partition.groups()) {
                groups.add(new QueueBodies.GroupPosition(position.group(), position.lag(), position.leaseId(),
                        Times.iso(position.leaseExpiresAt()), position.batchRetries()));
            }
            partitions.add(new QueueBodies.Partition(partition.name(), partition.id(), partition.messages(),
                    Times.iso(partition.newestAt()), groups));
        }
        return new QueueBodies.Detail(summary(summary), partitions);
    }

    /**
     * {@code GET /api/v1/resources/namespaces} and {@code …/tasks}: Queen's Admin API lists them; same
     * shape as Queen, {@code {namespaces: [{namespace, queues, partitions, messages: {total, pending}}]}}.
     */
    @GetMapping("/api/v1/resources/namespaces")
    QueueBodies.Namespaces namespaces() {
        return new QueueBodies.Namespaces(groupedBy(Views.QueueSummary::namespace, (name, queues) ->
                new QueueBodies.NamespaceRow(name, queues.size(), partitions(queues), counts(queues))));
    }

    @GetMapping("/api/v1/resources/tasks")
    QueueBodies.Tasks tasks() {
        return new QueueBodies.Tasks(groupedBy(Views.QueueSummary::task, (name, queues) ->
                new QueueBodies.TaskRow(name, queues.size(), partitions(queues), counts(queues))));
    }

    /** One row per non-empty {@code key}, by name. */
    private <R> List<R> groupedBy(Function<Views.QueueSummary, String> key,
                                  BiFunction<String, List<Views.QueueSummary>, R> row) {
        Map<String, List<Views.QueueSummary>> groups = new TreeMap<>();
        for (Views.QueueSummary summary : broker.read(s -> s.queues())) {
            String name = key.apply(summary);
            if (name != null && !name.isEmpty()) {
                groups.computeIfAbsent(name, n -> new ArrayList<>()).add(summary);
            }
        }
        List<R> rows = new ArrayList<>(groups.size());
        groups.forEach((name, queues) -> rows.add(row.apply(name, queues)));
        return rows;
    }

    private static long partitions(List<Views.QueueSummary> queues) {
        return queues.stream().mapToLong(Views.QueueSummary::partitions).sum();
    }

    private static QueueBodies.MessageCounts counts(List<Views.QueueSummary> queues) {
        return new QueueBodies.MessageCounts(queues.stream().mapToLong(Views.QueueSummary::storedMessages).sum(),
                queues.stream().mapToLong(q -> q.depth().pending()).sum());
    }

    @GetMapping("/api/v1/resources/overview")
    QueueBodies.Overview overview() {
        long pending = 0;
        long reserved = 0;
        long delayed = 0;
        List<Views.QueueSummary> queues = broker.read(s -> s.queues());
        for (Views.QueueSummary summary : queues) {
            pending += summary.depth().pending();
            reserved += summary.depth().reserved();
            delayed += summary.depth().delayed();
        }
        return new QueueBodies.Overview(queues.size(), pending, reserved, delayed,
                broker.read(s -> s.failedJobs().size()), broker.read(s -> s.storedMessages()),
                broker.read(s -> s.storedBytes()));
    }

    @GetMapping("/api/v1/queues/{queue}/size")
    QueueBodies.Size size(@PathVariable String queue) {
        Views.Depth depth = broker.read(s -> s.depth(queue, null));
        if (depth == null) {
            throw ApiException.of(Rejection.QUEUE_NOT_FOUND, queue);
        }
        long now = broker.read(s -> s.lastAppliedTime());
        long oldest = broker.read(s -> s.oldestPendingCreatedAt(queue));
        long oldestAge = oldest == 0 ? 0 : Math.max(0, Math.max(now, System.currentTimeMillis()) - oldest);
        return new QueueBodies.Size(queue, depth.size(), depth.pending(), depth.delayed(), depth.reserved(), oldestAge);
    }

    @GetMapping("/api/v1/monitor")
    List<QueueBodies.MonitorRow> monitor(@RequestParam(required = false) String queues,
                                         @RequestParam(defaultValue = "1000") long max) {
        if (queues == null || queues.isBlank()) {
            throw ApiException.badRequest("'queues' is required: a comma-separated list of queue names");
        }
        List<QueueBodies.MonitorRow> rows = new ArrayList<>();
        for (String queue : queues.split(",")) {
            String name = queue.trim();
            Views.Depth depth = broker.read(s -> s.depth(name, null));
            long size = depth == null ? 0 : depth.size();
            rows.add(new QueueBodies.MonitorRow(name, size, size > max ? "ALERT" : "OK"));
        }
        return rows;
    }

    @PostMapping("/api/v1/queues/{queue}/pause")
    Mono<QueueBodies.Paused> pause(@PathVariable String queue) {
        return paused(queue, true);
    }

    @PostMapping("/api/v1/queues/{queue}/resume")
    Mono<QueueBodies.Paused> resume(@PathVariable String queue) {
        return paused(queue, false);
    }

    private Mono<QueueBodies.Paused> paused(String queue, boolean paused) {
        return broker.submit(new Command.PauseQueue(queue, paused), Result.QueuePaused.class)
                .map(p -> new QueueBodies.Paused(p.queue(), p.paused()));
    }

    @DeleteMapping("/api/v1/queues/{queue}/clear")
    Mono<QueueBodies.Cleared> clear(@PathVariable String queue) {
        return broker.submit(new Command.ClearQueue(queue), Result.Cleared.class)
                .map(c -> new QueueBodies.Cleared(c.queue(), c.cleared()));
    }

    private static QueueBodies.Summary summary(Views.QueueSummary summary) {
        Views.Depth depth = summary.depth();
        return new QueueBodies.Summary(summary.name(), summary.id(), summary.namespace(), summary.task(),
                summary.partitions(), depth.size(), depth.pending(), depth.reserved(), depth.delayed(),
                summary.failed(), summary.paused(), summary.groups(), QueueOptionsJson.write(summary.options()));
    }
}
