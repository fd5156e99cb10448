package io.regina.api;

import io.regina.queue.Command;
import io.regina.queue.QueueOptions;
import io.regina.queue.Rejection;
import io.regina.queue.Result;
import io.regina.queue.Views;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/** Configure, delete and inspect queues (API.md A2, A3 and B2). */
@RestController
class QueueController {
    private final Broker broker;

    QueueController(Broker broker) {
        this.broker = broker;
    }

    @PostMapping("/api/v1/configure")
    Mono<Map<String, Object>> configure(@RequestBody(required = false) JsonNode body) {
        JsonFields.object(body, "configure");
        String queue = QueueNames.check(JsonFields.requiredString(body, "queue"));
        QueueOptions options = QueueOptionsJson.read(body.get("options"));
        Command.Configure command = new Command.Configure(queue, JsonFields.string(body, "namespace", null),
                JsonFields.string(body, "task", null), options);
        return broker.submit(command, Result.Configured.class).map(c -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("configured", true);
            json.put("queueId", c.queueId());
            json.put("partitionId", c.partitionId());
            json.put("queue", c.queue());
            json.put("namespace", c.namespace());
            json.put("task", c.task());
            json.put("options", QueueOptionsJson.write(c.options()));
            return json;
        });
    }

    @DeleteMapping("/api/v1/resources/queues/{queue}")
    Mono<Map<String, Object>> delete(@PathVariable String queue) {
        return broker.submit(new Command.DeleteQueue(queue), Result.QueueDeleted.class).map(d -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("deleted", true);
            json.put("queue", d.queue());
            json.put("existed", d.existed());
            return json;
        });
    }

    @GetMapping("/api/v1/resources/queues")
    Map<String, Object> list() {
        List<Map<String, Object>> queues = new ArrayList<>();
        for (Views.QueueSummary summary : broker.read(s -> s.queues())) {
            queues.add(summary(summary));
        }
        return Map.of("queues", queues);
    }

    @GetMapping("/api/v1/resources/queues/{queue}")
    Map<String, Object> show(@PathVariable String queue) {
        Views.QueueSummary summary = broker.read(s -> s.queue(queue));
        if (summary == null) {
            throw ApiException.of(Rejection.QUEUE_NOT_FOUND, queue);
        }
        Map<String, Object> json = summary(summary);
        List<Map<String, Object>> partitions = new ArrayList<>();
        for (Views.PartitionView partition : broker.read(s -> s.partitions(queue, 0, 1000))) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("name", partition.name());
            p.put("id", partition.id());
            p.put("messages", partition.messages());
            p.put("newestMessageAt", Times.iso(partition.newestAt()));
            List<Map<String, Object>> groups = new ArrayList<>();
            for (Views.GroupPosition position : partition.groups()) {
                Map<String, Object> g = new LinkedHashMap<>();
                g.put("consumerGroup", position.group());
                g.put("lag", position.lag());
                g.put("leaseId", position.leaseId());
                g.put("leaseExpiresAt", Times.iso(position.leaseExpiresAt()));
                g.put("batchRetryCount", position.batchRetries());
                groups.add(g);
            }
            p.put("consumerGroups", groups);
            partitions.add(p);
        }
        json.put("partitionList", partitions);
        return json;
    }

    /**
     * {@code GET /api/v1/resources/namespaces} and {@code …/tasks}: Queen's Admin API lists them; same
     * shape as Queen, {@code {namespaces: [{namespace, queues, partitions, messages: {total, pending}}]}}.
     */
    @GetMapping("/api/v1/resources/namespaces")
    Map<String, Object> namespaces() {
        return Map.of("namespaces", groupedBy("namespace", Views.QueueSummary::namespace));
    }

    @GetMapping("/api/v1/resources/tasks")
    Map<String, Object> tasks() {
        return Map.of("tasks", groupedBy("task", Views.QueueSummary::task));
    }

    private List<Map<String, Object>> groupedBy(String field, Function<Views.QueueSummary, String> key) {
        Map<String, List<Views.QueueSummary>> groups = new TreeMap<>();
        for (Views.QueueSummary summary : broker.read(s -> s.queues())) {
            String name = key.apply(summary);
            if (name != null && !name.isEmpty()) {
                groups.computeIfAbsent(name, n -> new ArrayList<>()).add(summary);
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        groups.forEach((name, queues) -> {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put(field, name);
            row.put("queues", queues.size());
            row.put("partitions", queues.stream().mapToLong(Views.QueueSummary::partitions).sum());
            row.put("messages", Map.of(
                    "total", queues.stream().mapToLong(Views.QueueSummary::storedMessages).sum(),
                    "pending", queues.stream().mapToLong(q -> q.depth().pending()).sum()));
            rows.add(row);
        });
        return rows;
    }

    @GetMapping("/api/v1/resources/overview")
    Map<String, Object> overview() {
        long pending = 0;
        long reserved = 0;
        long delayed = 0;
        List<Views.QueueSummary> queues = broker.read(s -> s.queues());
        for (Views.QueueSummary summary : queues) {
            pending += summary.depth().pending();
            reserved += summary.depth().reserved();
            delayed += summary.depth().delayed();
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("queues", queues.size());
        json.put("pending", pending);
        json.put("reserved", reserved);
        json.put("delayed", delayed);
        json.put("failed", broker.read(s -> s.failedJobs().size()));
        json.put("storedMessages", broker.read(s -> s.storedMessages()));
        json.put("storedBytes", broker.read(s -> s.storedBytes()));
        return json;
    }

    @GetMapping("/api/v1/queues/{queue}/size")
    Map<String, Object> size(@PathVariable String queue) {
        Views.Depth depth = broker.read(s -> s.depth(queue, null));
        if (depth == null) {
            throw ApiException.of(Rejection.QUEUE_NOT_FOUND, queue);
        }
        long now = broker.read(s -> s.lastAppliedTime());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("queue", queue);
        json.put("size", depth.size());
        json.put("pending", depth.pending());
        json.put("delayed", depth.delayed());
        json.put("reserved", depth.reserved());
        json.put("oldestPendingAgeMs", depth.oldestPendingCreatedAt() == 0 ? 0
                : Math.max(0, Math.max(now, System.currentTimeMillis()) - depth.oldestPendingCreatedAt()));
        return json;
    }

    @GetMapping("/api/v1/monitor")
    List<Map<String, Object>> monitor(@RequestParam(required = false) String queues,
                                      @RequestParam(defaultValue = "1000") long max) {
        if (queues == null || queues.isBlank()) {
            throw ApiException.badRequest("'queues' is required: a comma-separated list of queue names");
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String queue : queues.split(",")) {
            String name = queue.trim();
            Views.Depth depth = broker.read(s -> s.depth(name, null));
            long size = depth == null ? 0 : depth.size();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("queue", name);
            row.put("size", size);
            row.put("status", size > max ? "ALERT" : "OK");
            rows.add(row);
        }
        return rows;
    }

    @PostMapping("/api/v1/queues/{queue}/pause")
    Mono<Map<String, Object>> pause(@PathVariable String queue) {
        return paused(queue, true);
    }

    @PostMapping("/api/v1/queues/{queue}/resume")
    Mono<Map<String, Object>> resume(@PathVariable String queue) {
        return paused(queue, false);
    }

    private Mono<Map<String, Object>> paused(String queue, boolean paused) {
        return broker.submit(new Command.PauseQueue(queue, paused), Result.QueuePaused.class)
                .map(p -> Map.of("queue", p.queue(), "paused", p.paused()));
    }

    @DeleteMapping("/api/v1/queues/{queue}/clear")
    Mono<Map<String, Object>> clear(@PathVariable String queue) {
        return broker.submit(new Command.ClearQueue(queue), Result.Cleared.class)
                .map(c -> Map.of("queue", c.queue(), "cleared", c.cleared()));
    }

    private static Map<String, Object> summary(Views.QueueSummary summary) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("name", summary.name());
        json.put("id", summary.id());
        json.put("namespace", summary.namespace());
        json.put("task", summary.task());
        json.put("partitions", summary.partitions());
        json.put("size", summary.depth().size());
        json.put("pending", summary.depth().pending());
        json.put("reserved", summary.depth().reserved());
        json.put("delayed", summary.depth().delayed());
        json.put("failed", summary.failed());
        json.put("paused", summary.paused());
        json.put("consumerGroups", summary.groups());
        json.put("options", QueueOptionsJson.write(summary.options()));
        return json;
    }
}
