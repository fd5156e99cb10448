package io.regina.api;

import io.regina.api.dto.DlqMessage;
import io.regina.api.dto.FailedJobBodies;
import io.regina.api.dto.FailedJobDto;
import io.regina.queue.Command;
import io.regina.queue.FailedJob;
import io.regina.queue.FailedJobSelector;
import io.regina.queue.FailedJobTable;
import io.regina.queue.FailedJobSearch;
import io.regina.queue.FailedJobs;
import io.regina.queue.Rejection;
import io.regina.queue.Result;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.List;

/**
 * The failed-jobs table (API.md B1) and Queen's view of it, the DLQ. Bulk retries run as a series of
 * bounded commands, each atomic, so a million rows never stall the state machine.
 */
@RestController
class FailedJobController {
    private static final int MAX_HOURS = 1_000_000;
    private static final Logger log = LoggerFactory.getLogger(FailedJobController.class);

    private final Broker broker;

    FailedJobController(Broker broker) {
        this.broker = broker;
    }

    @GetMapping("/api/v1/failed-jobs")
    FailedJobBodies.Page list(@RequestParam(required = false) String queue, @RequestParam(required = false) String q,
                             @RequestParam(required = false) String from, @RequestParam(required = false) String to,
                             @RequestParam(defaultValue = "50") int limit,
                             @RequestParam(required = false) String cursor) {
        if (limit < 1 || limit > 1000) {
            throw ApiException.badRequest("'limit' must be between 1 and 1000");
        }
        long fromMs = Times.parse(from, "from");
        long toMs = Times.parse(to, "to");
        String text = q == null || q.isEmpty() ? null : q;
        String queueName = queue == null || queue.isEmpty() ? null : queue;
        FailedJobs.Page page = FailedJobSearch.page(broker::read, queueName, text, fromMs, toMs, limit, cursor);
        List<FailedJobDto> items = new ArrayList<>(page.items().size());
        page.items().forEach(row -> items.add(dto(row)));
        return new FailedJobBodies.Page(items, page.nextCursor(), page.total());
    }

    @GetMapping("/api/v1/failed-jobs/{uuid}")
    FailedJobDto show(@PathVariable String uuid) {
        FailedJob row = broker.read(s -> s.failedJobs().get(uuid));
        if (row == null) {
            throw ApiException.of(Rejection.FAILED_JOB_NOT_FOUND, uuid);
        }
        return dto(row);
    }

    @PostMapping("/api/v1/failed-jobs/retry")
    Mono<FailedJobBodies.Retried> retry(@JsonBody("retry") FailedJobBodies.RetryRequest body) {
        FailedJobSelector selector = selector(body);
        if (selector instanceof FailedJobSelector.Ids ids) {
            return broker.submit(new Command.RetryFailedJobs(ids, ids.uuids().size()), Result.FailedJobsRetried.class)
                    .map(r -> retried(r.retried(), r.missing()));
        }
        return retryInSteps(selector, 0, 1).map(total -> retried(total, List.of()));
    }

    /** One bounded, atomic command per step; pops and pushes interleave between the steps. */
    private Mono<Long> retryInSteps(FailedJobSelector selector, long sofar, int step) {
        return broker.submit(new Command.RetryFailedJobs(selector, FailedJobs.BULK_STEP),
                        Result.FailedJobsRetried.class)
                .flatMap(done -> {
                    long total = sofar + done.retried();
                    if (done.retried() == 0 || done.remaining() == 0) {
                        return Mono.just(total);
                    }
                    log.info("Retrying failed jobs: step {} done, {} retried, {} still match", step, total,
                            done.remaining());
                    return retryInSteps(selector, total, step + 1);
                });
    }

    @PostMapping("/api/v1/failed-jobs/{uuid}/retry")
    Mono<FailedJobBodies.Retried> retryOne(@PathVariable String uuid,
                                           @JsonBody(value = "retry", optional = true)
                                           FailedJobBodies.RetryOneRequest body) {
        String data = body == null ? null : body.data();
        return broker.submit(new Command.RetryFailedJob(uuid, data), Result.FailedJobsRetried.class)
                .map(r -> retried(r.retried(), r.missing()));
    }

    @DeleteMapping("/api/v1/failed-jobs/{uuid}")
    Mono<FailedJobBodies.Forgotten> forget(@PathVariable String uuid) {
        return broker.submit(new Command.ForgetFailedJob(uuid), Result.FailedJobsRemoved.class)
                .map(r -> new FailedJobBodies.Forgotten(r.removed()));
    }

    @PostMapping("/api/v1/failed-jobs/flush")
    Mono<FailedJobBodies.Flushed> flush(@JsonBody(value = "flush", optional = true)
                                        FailedJobBodies.FlushRequest body) {
        int hours = FieldChecks.within("hours", body == null ? null : body.hours(), 0, 0, MAX_HOURS);
        String queue = body == null ? null : body.queue();
        return removeInSteps(hours, queue, false, 0).map(FailedJobBodies.Flushed::new);
    }

    @PostMapping("/api/v1/failed-jobs/prune")
    Mono<FailedJobBodies.Pruned> prune(@JsonBody(value = "prune", optional = true)
                                       FailedJobBodies.PruneRequest body) {
        int hours = FieldChecks.within("hours", body == null ? null : body.hours(), 24, 0, MAX_HOURS);
        return removeInSteps(hours, null, true, 0).map(FailedJobBodies.Pruned::new);
    }

    private Mono<Long> removeInSteps(int hours, String queue, boolean strictlyOlder, long sofar) {
        return broker.submit(new Command.RemoveFailedJobs(hours, queue, strictlyOlder, FailedJobs.BULK_STEP),
                        Result.FailedJobsRemoved.class)
                .flatMap(step -> step.more() ? removeInSteps(hours, queue, strictlyOlder, sofar + step.removed())
                        : Mono.just(sofar + step.removed()));
    }

    @GetMapping("/api/v1/dlq")
    FailedJobBodies.DlqPage dlq(@RequestParam(required = false) String queue,
                            @RequestParam(required = false) String consumerGroup,
                            @RequestParam(required = false) String partition,
                            @RequestParam(required = false) String from, @RequestParam(required = false) String to,
                            @RequestParam(defaultValue = "100") int limit, @RequestParam(defaultValue = "0") int offset) {
        if (limit < 1 || limit > 1000 || offset < 0) {
            throw ApiException.badRequest("'limit' must be between 1 and 1000 and 'offset' at least 0");
        }
        long fromMs = Times.parse(from, "from");
        long toMs = Times.parse(to, "to");
        String queueName = queue == null || queue.isEmpty() ? null : queue;
        // The total needs every row of the range: walked a page per read, so no read holds the apply lock
        // for more than a page. The cursor only moves to older rows; rows failing meanwhile are not counted.
        List<DlqMessage> messages = new ArrayList<>();
        long total = 0;
        String cursor = null;
        do {
            String after = cursor;
            FailedJobTable.Page page = broker.read(s -> s.failedJobs().list(queueName, null, fromMs, toMs, 1000,
                    after));
            for (FailedJob row : page.items()) {
                if ((consumerGroup != null && !consumerGroup.equals(row.consumerGroup()))
                        || (partition != null && !partition.equals(row.partition()))) {
                    continue;
                }
                if (total >= offset && messages.size() < limit) {
                    messages.add(dlqMessage(row));
                }
                total++;
            }
            cursor = page.nextCursor();
        } while (cursor != null);
        return new FailedJobBodies.DlqPage(messages, new FailedJobBodies.Pagination(limit, offset), total);
    }

    private static FailedJobSelector selector(FailedJobBodies.RetryRequest body) {
        List<FailedJobSelector> chosen = new ArrayList<>();
        if (body.ids() != null) {
            List<String> ids = FieldChecks.strings(body.ids(), "ids");
            if (ids.isEmpty() || ids.size() > FailedJobs.MAX_IDS) {
                throw ApiException.badRequest("'ids' must list 1 to " + FailedJobs.MAX_IDS + " failed-job uuids");
            }
            chosen.add(new FailedJobSelector.Ids(ids));
        }
        if (Boolean.TRUE.equals(body.all())) {
            chosen.add(new FailedJobSelector.All());
        }
        if (body.filter() != null) {
            chosen.add(filter(body.filter()));
        }
        if (body.queue() != null || body.from() != null || body.to() != null) {
            chosen.add(filter(body.topLevelFilter()));
        }
        if (chosen.size() != 1) {
            throw ApiException.badRequest("Send exactly one selector: {ids:[…]}, {all:true}, {queue}, {from, to} "
                    + "or {filter:{queue, q, from, to}}");
        }
        return chosen.get(0);
    }

    private static FailedJobSelector.Search filter(FailedJobBodies.Filter filter) {
        String text = filter.q();
        return new FailedJobSelector.Search(filter.queue(), text == null || text.isEmpty() ? null : text,
                Times.parse(filter.from(), "from"), Times.parse(filter.to(), "to"));
    }

    private static FailedJobBodies.Retried retried(long count, List<String> missing) {
        return new FailedJobBodies.Retried(count, missing);
    }

    static FailedJobDto dto(FailedJob row) {
        return new FailedJobDto(row.uuid(), row.queue(), row.partition(), row.consumerGroup(), row.messageId(),
                row.transactionId(), row.traceId(), row.data(), row.error(), row.attempts(),
                Times.iso(row.createdAt()), Times.iso(row.failedAt()), row.retryOf());
    }

    private static DlqMessage dlqMessage(FailedJob row) {
        return new DlqMessage(row.messageId(), row.transactionId(), row.partitionId(), row.queue(), row.partition(),
                row.consumerGroup(), row.error(), row.attempts(), row.data(), row.producerSub(),
                Times.iso(row.createdAt()), Times.iso(row.failedAt()), row.uuid());
    }
}
