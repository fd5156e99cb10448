package io.regina.api;

import io.regina.api.dto.QueueDepth;
import io.regina.queue.Rejection;
import io.regina.queue.Views;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/queues/{queue}/depth?consumerGroup=}: what one consumer group has left of a queue, for
 * a supervisor that scales its workers, with the time to drain it at the group's recent settle rate.
 */
@RestController
class QueueDepthController {
    private final Broker broker;
    private final DrainRates rates;

    QueueDepthController(Broker broker, DrainRates rates) {
        this.broker = broker;
        this.rates = rates;
    }

    @GetMapping("/api/v1/queues/{queue}/depth")
    QueueDepth depth(@PathVariable String queue, @RequestParam(required = false) String consumerGroup) {
        String group = consumerGroup == null || consumerGroup.isEmpty() ? PopController.QUEUE_MODE : consumerGroup;
        Views.Depth depth = broker.read(s -> s.depth(queue, group));
        if (depth == null) {
            throw ApiException.of(Rejection.QUEUE_NOT_FOUND, queue);
        }
        Double rate = rates.observe(queue, group, depth.settledSeq());
        return new QueueDepth(queue, group, depth.pending(), depth.reserved(), depth.delayed(), depth.size(), rate,
                drainSeconds(depth.size(), rate));
    }

    /** The time to settle {@code total} at {@code rate}: 0 when nothing is left, null while the rate is unknown or 0. */
    private static Long drainSeconds(long total, Double rate) {
        if (total == 0) {
            return 0L;
        }
        if (rate == null || rate <= 0) {
            return null;
        }
        return (long) Math.ceil(total / rate);
    }
}
