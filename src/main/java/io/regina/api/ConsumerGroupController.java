package io.regina.api;

import io.regina.queue.Command;
import io.regina.queue.Result;
import io.regina.queue.Views;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Consumer groups: list, delete (everywhere or on one queue), seek, subscription time. */
@RestController
class ConsumerGroupController {
    private final Broker broker;

    ConsumerGroupController(Broker broker) {
        this.broker = broker;
    }

    @GetMapping("/api/v1/consumer-groups")
    List<Map<String, Object>> list() {
        List<Map<String, Object>> groups = new ArrayList<>();
        for (Views.GroupSummary group : broker.read(s -> s.groups())) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("consumerGroup", group.group());
            json.put("queueName", group.queue());
            json.put("partitions", group.partitions());
            json.put("lag", group.lag());
            json.put("leasedPartitions", group.leased());
            json.put("subscriptionTimestamp", Times.iso(group.subscribedAt()));
            groups.add(json);
        }
        return groups;
    }

    @DeleteMapping("/api/v1/consumer-groups/{group}")
    Mono<Map<String, Object>> delete(@PathVariable String group) {
        return delete(group, null);
    }

    @DeleteMapping("/api/v1/consumer-groups/{group}/queues/{queue}")
    Mono<Map<String, Object>> delete(@PathVariable String group, @PathVariable String queue) {
        return broker.submit(new Command.DeleteGroup(group, queue), Result.GroupDeleted.class).map(d -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("success", true);
            json.put("consumerGroup", d.group());
            if (queue != null) {
                json.put("queueName", queue);
            }
            json.put("deletedPartitions", d.deletedPartitions());
            json.put("metadataDeleted", d.metadataDeleted());
            return json;
        });
    }

    @PostMapping("/api/v1/consumer-groups/{group}/queues/{queue}/seek")
    Mono<Map<String, Object>> seek(@PathVariable String group, @PathVariable String queue,
                                   @RequestBody(required = false) JsonNode body) {
        JsonFields.object(body, "seek");
        boolean toEnd = JsonFields.bool(body, "toEnd", false);
        String timestamp = JsonFields.string(body, "timestamp", null);
        if (!toEnd && (timestamp == null || timestamp.isEmpty())) {
            throw ApiException.badRequest("Send either {\"timestamp\": \"<ISO time>\"} or {\"toEnd\": true}");
        }
        long at = toEnd ? 0 : Times.parse(timestamp, "timestamp");
        return broker.submit(new Command.Seek(group, queue, at, toEnd), Result.Sought.class).map(s -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("success", true);
            json.put("consumerGroup", group);
            json.put("queueName", queue);
            json.put("seekToEnd", s.toEnd());
            json.put("targetTimestamp", toEnd ? null : timestamp);
            json.put("partitionsUpdated", s.partitionsUpdated());
            return json;
        });
    }

    @PostMapping("/api/v1/consumer-groups/{group}/subscription")
    Mono<Map<String, Object>> subscription(@PathVariable String group, @RequestBody(required = false) JsonNode body) {
        JsonFields.object(body, "subscription");
        String timestamp = JsonFields.string(body, "subscriptionTimestamp", null);
        if (timestamp == null || timestamp.isEmpty()) {
            throw ApiException.badRequest("'subscriptionTimestamp' is required (an ISO time)");
        }
        long at = Times.parse(timestamp, "subscriptionTimestamp");
        return broker.submit(new Command.SetSubscription(group, at), Result.SubscriptionSet.class).map(s -> {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("success", true);
            json.put("consumerGroup", group);
            json.put("subscriptionTimestamp", Times.iso(s.timestamp()));
            json.put("queuesUpdated", s.queuesUpdated());
            return json;
        });
    }
}
