package io.regina.api;

import io.regina.api.dto.ConsumerGroupBodies;
import io.regina.queue.Command;
import io.regina.queue.Result;
import io.regina.queue.Views;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;

/** Consumer groups: list, delete (everywhere or on one queue), seek, subscription time. */
@RestController
class ConsumerGroupController {
    private final Broker broker;

    ConsumerGroupController(Broker broker) {
        this.broker = broker;
    }

    @GetMapping("/api/v1/consumer-groups")
    List<ConsumerGroupBodies.Group> list() {
        List<ConsumerGroupBodies.Group> groups = new ArrayList<>();
        for (Views.GroupSummary group : broker.read(s -> s.groups())) {
            groups.add(new ConsumerGroupBodies.Group(group.group(), group.queue(), group.partitions(), group.lag(),
                    group.leased(), Times.iso(group.subscribedAt())));
        }
        return groups;
    }

    @DeleteMapping("/api/v1/consumer-groups/{group}")
    Mono<ConsumerGroupBodies.Deleted> delete(@PathVariable String group) {
        return delete(group, null);
    }

    @DeleteMapping("/api/v1/consumer-groups/{group}/queues/{queue}")
    Mono<ConsumerGroupBodies.Deleted> delete(@PathVariable String group, @PathVariable String queue) {
        return broker.submit(new Command.DeleteGroup(group, queue), Result.GroupDeleted.class)
                .map(d -> new ConsumerGroupBodies.Deleted(true, d.group(), queue, d.deletedPartitions(),
                        d.metadataDeleted()));
    }

    @PostMapping("/api/v1/consumer-groups/{group}/queues/{queue}/seek")
    Mono<ConsumerGroupBodies.Sought> seek(@PathVariable String group, @PathVariable String queue,
                                          @JsonBody("seek") ConsumerGroupBodies.SeekRequest body) {
        boolean toEnd = Boolean.TRUE.equals(body.toEnd());
        String timestamp = body.timestamp();
        if (!toEnd && (timestamp == null || timestamp.isEmpty())) {
            throw ApiException.badRequest("Send either {\"timestamp\": \"<ISO time>\"} or {\"toEnd\": true}");
        }
        long at = toEnd ? 0 : Times.parse(timestamp, "timestamp");
        return broker.submit(new Command.Seek(group, queue, at, toEnd), Result.Sought.class)
                .map(s -> new ConsumerGroupBodies.Sought(true, group, queue, s.toEnd(), toEnd ? null : timestamp,
                        s.partitionsUpdated()));
    }

    @PostMapping("/api/v1/consumer-groups/{group}/subscription")
    Mono<ConsumerGroupBodies.SubscriptionSet> subscription(
            @PathVariable String group, @JsonBody("subscription") ConsumerGroupBodies.SubscriptionRequest body) {
        String timestamp = body.subscriptionTimestamp();
        if (timestamp == null || timestamp.isEmpty()) {
            throw ApiException.badRequest("'subscriptionTimestamp' is required (an ISO time)");
        }
        long at = Times.parse(timestamp, "subscriptionTimestamp");
        return broker.submit(new Command.SetSubscription(group, at), Result.SubscriptionSet.class)
                .map(s -> new ConsumerGroupBodies.SubscriptionSet(true, group, Times.iso(s.timestamp()),
                        s.queuesUpdated()));
    }
}
