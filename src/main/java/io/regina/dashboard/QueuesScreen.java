package io.regina.dashboard;

import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.FailedJobs;
import io.regina.queue.Result;
import io.regina.queue.Views;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.UriComponentsBuilder;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Queues and one queue in detail: options, the partitions (stripes) paged so that a queue with
 * 100,000 of them stays usable, consumer groups with seek and delete, a message browser and the
 * queue's dead letters; pause, resume and clear.
 */
@Controller
class QueuesScreen {
    static final int PARTITION_PAGE = 100;
    static final int BROWSE_LIMIT = 50;
    static final int DEAD_LETTERS = 20;

    private final CommandBus bus;
    private final PayloadFormat payloads;

    QueuesScreen(CommandBus bus, PayloadFormat payloads) {
        this.bus = bus;
        this.payloads = payloads;
    }

    @GetMapping(DashboardRoutes.QUEUES)
    String queues(@RequestParam(required = false) String name, Model model) {
        String filter = name == null ? "" : name.trim();
        List<Views.QueueSummary> queues = new ArrayList<>();
        for (Views.QueueSummary queue : bus.read(s -> s.queues())) {
            if (filter.isEmpty() || queue.name().toLowerCase(Locale.ROOT).contains(filter.toLowerCase(Locale.ROOT))) {
                queues.add(queue);
            }
        }
        queues.sort(Comparator.comparing(Views.QueueSummary::name));
        model.addAttribute("screen", "queues");
        model.addAttribute("name", filter);
        model.addAttribute("queues", queues);
        return "queues/list";
    }

    /** What the queue page shows, read at one moment: partitions, the browsed one, groups, dead letters. */
    private record QueueDetail(Views.QueueSummary summary, long oldestPendingCreatedAt, int offset,
                               List<Views.PartitionView> partitions, String browsed, List<Views.MessageView> messages,
                               List<Views.GroupSummary> groups, FailedJobs.Page deadLetters) {

        /** Null when there is no such queue. */
        static QueueDetail read(BrokerView state, String queue, int offset, String partition, long fromSeq) {
            Views.QueueSummary summary = state.queue(queue);
            if (summary == null) {
                return null;
            }
            int from = Math.max(0, Math.min(offset, Math.max(0, summary.partitions() - 1)));
            List<Views.PartitionView> partitions = state.partitions(queue, from, PARTITION_PAGE);
            String browsed = partition != null && !partition.isEmpty() ? partition
                    : partitions.isEmpty() ? null : partitions.get(0).name();
            List<Views.MessageView> messages = browsed == null ? List.of()
                    : state.browse(queue, browsed, fromSeq, BROWSE_LIMIT);
            List<Views.GroupSummary> groups = new ArrayList<>();
            for (Views.GroupSummary group : state.groups()) {
                if (group.queue().equals(queue)) {
                    groups.add(group);
                }
            }
            return new QueueDetail(summary, state.oldestPendingCreatedAt(queue), from, partitions, browsed, messages,
                    groups, state.failedJobs().list(queue, null, 0, 0, DEAD_LETTERS, null));
        }
    }

    @GetMapping(DashboardRoutes.QUEUE)
    String queue(@PathVariable String queue, @RequestParam(defaultValue = "0") int offset,
                 @RequestParam(required = false) String partition, @RequestParam(defaultValue = "0") long fromSeq,
                 Model model) {
        long seq = Math.max(0, fromSeq);
        QueueDetail detail = bus.read(s -> QueueDetail.read(s, queue, offset, partition, seq));
        if (detail == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND, "No queue " + queue);
        }
        model.addAttribute("screen", "queues");
        model.addAttribute("queue", detail.summary());
        model.addAttribute("oldestPendingCreatedAt", detail.oldestPendingCreatedAt());
        model.addAttribute("offset", detail.offset());
        model.addAttribute("pageSize", PARTITION_PAGE);
        model.addAttribute("partitions", detail.partitions());
        model.addAttribute("groups", detail.groups());
        model.addAttribute("browsed", detail.browsed());
        model.addAttribute("fromSeq", seq);
        model.addAttribute("messages", detail.messages());
        model.addAttribute("deadLetters", detail.deadLetters());
        model.addAttribute("payloads", payloads);
        return "queues/detail";
    }

    @PostMapping(DashboardRoutes.QUEUE_PAUSE)
    Mono<String> pause(@PathVariable String queue, ServerWebExchange exchange) {
        return apply(exchange, new Command.PauseQueue(queue, true), "Paused " + queue);
    }

    @PostMapping(DashboardRoutes.QUEUE_RESUME)
    Mono<String> resume(@PathVariable String queue, ServerWebExchange exchange) {
        return apply(exchange, new Command.PauseQueue(queue, false), "Resumed " + queue);
    }

    @PostMapping(DashboardRoutes.QUEUE_CLEAR)
    Mono<String> clear(@PathVariable String queue, ServerWebExchange exchange) {
        return exchange.getFormData().flatMap(form -> Submit.command(bus, new Command.ClearQueue(queue))
                .map(result -> Notices.redirect(exchange, back(form, queue), outcome(result, r ->
                        "Cleared " + ((Result.Cleared) r).cleared() + " pending messages from " + queue))));
    }

    @PostMapping(DashboardRoutes.GROUP_SEEK)
    Mono<String> seek(@PathVariable String queue, @PathVariable String group, ServerWebExchange exchange) {
        return exchange.getFormData().flatMap(form -> {
            boolean toEnd = "end".equals(form.getFirst("to"));
            long timestamp = 0;
            if (!toEnd) {
                try {
                    timestamp = FailedJobFilter.time(form.getFirst("timestamp"));
                } catch (IllegalArgumentException e) {
                    return Mono.just(Notices.redirect(exchange, back(form, queue), e.getMessage()));
                }
            }
            long at = timestamp;
            return Submit.command(bus, new Command.Seek(group, queue, at, toEnd))
                    .map(result -> Notices.redirect(exchange, back(form, queue), outcome(result, r ->
                            "Moved " + group + " on " + ((Result.Sought) r).partitionsUpdated() + " partitions to "
                                    + (toEnd ? "the end" : Format.INSTANCE.time(at)))));
        });
    }

    @PostMapping(DashboardRoutes.GROUP_DELETE)
    Mono<String> deleteGroup(@PathVariable String queue, @PathVariable String group, ServerWebExchange exchange) {
        return exchange.getFormData().flatMap(form -> Submit.command(bus, new Command.DeleteGroup(group, queue))
                .map(result -> Notices.redirect(exchange, back(form, queue), outcome(result, r ->
                        "Deleted consumer group " + group + " on " + queue))));
    }

    private Mono<String> apply(ServerWebExchange exchange, Command command, String done) {
        String queue = command instanceof Command.PauseQueue pause ? pause.queue() : null;
        return exchange.getFormData().flatMap(form -> Submit.command(bus, command)
                .map(result -> Notices.redirect(exchange, back(form, queue), outcome(result, r -> done))));
    }

    private static String back(MultiValueMap<String, String> form, String queue) {
        String back = form.getFirst("back");
        if (back != null && !back.isEmpty()) {
            return back;
        }
        return UriComponentsBuilder.fromPath("/dashboard/queues/{queue}").buildAndExpand(queue).encode().toUriString();
    }

    static String outcome(Result result, java.util.function.Function<Result, String> done) {
        String rejected = Submit.rejection(result);
        return rejected != null ? "Refused: " + rejected : done.apply(result);
    }
}
