package io.regina.dashboard;

import io.regina.queue.BrokerView;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.FailedJob;
import io.regina.queue.FailedJobSearch;
import io.regina.queue.FailedJobSelector;
import io.regina.queue.FailedJobs;
import io.regina.queue.Result;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Failed jobs (the dead-letter table): search, cursor paging, retry and forget one, the selected or
 * every row matching the search, flush and prune; the detail page with "edit payload and retry".
 *
 * <p>"Retry / forget all N matching" act on exactly the rows the confirmation counted: the forms carry
 * the search, the log time the count was read at ({@code asOf}: rows failing later never match) and
 * the count itself, and the action refuses when the search no longer matches that many rows.
 *
 * <p>A page is one read of the state, except a text search: it reads in bounded steps
 * ({@link FailedJobSearch}), so searching a million rows never holds back the applies.
 */
@Controller
class FailedJobsScreen {
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    private static final int FORGET_CONCURRENCY = 64;

    private final CommandBus bus;
    private final PayloadFormat payloads;

    FailedJobsScreen(CommandBus bus, PayloadFormat payloads) {
        this.bus = bus;
        this.payloads = payloads;
    }

    /** The page and the log time it reflects, so that the count and asOf agree. */
    record Listing(FailedJobs.Page page, long asOf) { }

    /** A failed job and whether the row it was retried from is still in the table. */
    private record Detail(FailedJob job, boolean parentKnown) { }

    @GetMapping(DashboardRoutes.FAILED_JOBS)
    String list(@RequestParam(required = false) String queue, @RequestParam(required = false) String q,
                @RequestParam(required = false) String from, @RequestParam(required = false) String to,
                @RequestParam(required = false) String cursor, @RequestParam(defaultValue = "50") int limit,
                Model model) {
        model.addAttribute("screen", "failed-jobs");
        model.addAttribute("queueParam", queue == null ? "" : queue);
        model.addAttribute("qParam", q == null ? "" : q);
        model.addAttribute("fromParam", from == null ? "" : from);
        model.addAttribute("toParam", to == null ? "" : to);
        FailedJobFilter filter;
        try {
            filter = FailedJobFilter.of(queue, q, from, to);
        } catch (IllegalArgumentException e) {
            model.addAttribute("filterError", e.getMessage());
            filter = new FailedJobFilter(null, null, 0, 0);
        }
        int size = Math.max(1, Math.min(MAX_LIMIT, limit));
        Listing listing = listing(filter, size, cursor);
        model.addAttribute("filter", filter);
        model.addAttribute("page", listing.page());
        model.addAttribute("jobs", listing.page().items());
        model.addAttribute("total", listing.page().total());
        model.addAttribute("asOf", listing.asOf());
        model.addAttribute("cursor", cursor == null ? "" : cursor);
        model.addAttribute("limit", size);
        model.addAttribute("listUrl", filter.listUrl());
        return "failed-jobs/list";
    }

    /**
     * Without text, one read. A text search reads in bounded steps over the rows that had failed when
     * it began, so its count is the one that the "all matching" confirmation counts again.
     */
    private Listing listing(FailedJobFilter filter, int size, String cursor) {
        if (filter.text() == null) {
            return bus.read(s -> new Listing(s.failedJobs().list(filter.queue(), null, filter.from(), filter.to(),
                    size, cursor), s.lastAppliedTime()));
        }
        long asOf = bus.read(BrokerView::lastAppliedTime);
        FailedJobFilter until = filter.asOf(asOf);
        return new Listing(FailedJobSearch.page(bus::read, until.queue(), until.text(), until.from(), until.to(), size,
                cursor), asOf);
    }

    @GetMapping(DashboardRoutes.FAILED_JOB)
    String show(@PathVariable String uuid, Model model, ServerWebExchange exchange) {
        Detail detail = bus.read(s -> {
            FailedJob job = s.failedJobs().get(uuid);
            return job == null ? null
                    : new Detail(job, job.retryOf() != null && s.failedJobs().get(job.retryOf()) != null);
        });
        if (detail == null) {
            return Notices.redirect(exchange, DashboardRoutes.FAILED_JOBS,
                    "Failed job " + uuid + " is gone: it was retried or forgotten");
        }
        model.addAttribute("screen", "failed-jobs");
        model.addAttribute("job", detail.job());
        model.addAttribute("payload", payloads.pretty(detail.job().data()));
        model.addAttribute("parentKnown", detail.parentKnown());
        return "failed-jobs/detail";
    }

    @PostMapping(DashboardRoutes.FAILED_JOB_RETRY)
    Mono<String> retry(@PathVariable String uuid, ServerWebExchange exchange) {
        return exchange.getFormData().flatMap(form -> {
            String edited = form.getFirst("data");
            String data = null;
            if (edited != null) {
                try {
                    data = payloads.compact(edited);
                } catch (IllegalArgumentException e) {
                    return Mono.just(Notices.redirect(exchange, "/dashboard/failed-jobs/" + uuid,
                            "Not retried: the edited payload is not JSON (" + e.getMessage() + ")"));
                }
            }
            boolean withEdit = data != null;
            return Submit.command(bus, new Command.RetryFailedJob(uuid, data)).map(result ->
                    Notices.redirect(exchange, back(form), QueuesScreen.outcome(result, r ->
                            "Retried failed job " + uuid + (withEdit ? " with the edited payload" : ""))));
        });
    }

    @PostMapping(DashboardRoutes.FAILED_JOB_FORGET)
    Mono<String> forget(@PathVariable String uuid, ServerWebExchange exchange) {
        return exchange.getFormData().flatMap(form -> Submit.command(bus, new Command.ForgetFailedJob(uuid))
                .map(result -> Notices.redirect(exchange, back(form), QueuesScreen.outcome(result, r ->
                        "Forgot failed job " + uuid))));
    }

    @PostMapping(DashboardRoutes.FAILED_JOBS_RETRY_SELECTED)
    Mono<String> retrySelected(ServerWebExchange exchange) {
        return exchange.getFormData().flatMap(form -> {
            List<String> ids = ids(form);
            if (ids.isEmpty() || ids.size() > FailedJobs.MAX_IDS) {
                return Mono.just(Notices.redirect(exchange, back(form), ids.isEmpty() ? "Nothing selected"
                        : "Select at most " + FailedJobs.MAX_IDS + " rows, or use \"Retry all matching\""));
            }
            return Submit.command(bus, new Command.RetryFailedJobs(new FailedJobSelector.Ids(ids), ids.size()))
                    .map(result -> Notices.redirect(exchange, back(form), QueuesScreen.outcome(result, r -> {
                        Result.FailedJobsRetried retried = (Result.FailedJobsRetried) r;
                        return "Retried " + retried.retried() + " selected failed jobs"
                                + (retried.missing().isEmpty() ? "" : "; " + retried.missing().size()
                                + " were already gone");
                    })));
        });
    }

    @PostMapping(DashboardRoutes.FAILED_JOBS_FORGET_SELECTED)
    Mono<String> forgetSelected(ServerWebExchange exchange) {
        return exchange.getFormData().flatMap(form -> {
            List<String> ids = ids(form);
            if (ids.isEmpty()) {
                return Mono.just(Notices.redirect(exchange, back(form), "Nothing selected"));
            }
            return forgetAll(ids).map(forgotten -> Notices.redirect(exchange, back(form),
                    "Forgot " + forgotten + " selected failed jobs"
                            + (forgotten < ids.size() ? "; " + (ids.size() - forgotten) + " were already gone" : "")));
        });
    }

    @PostMapping(DashboardRoutes.FAILED_JOBS_RETRY_MATCHING)
    Mono<String> retryMatching(ServerWebExchange exchange) {
        return exchange.getFormData().flatMap(form -> matching(form, exchange, (filter, expected) ->
                retryInSteps(filter.selector(), 0).map(retried -> "Retried " + retried + " failed jobs matching "
                        + filter.describe())));
    }

    @PostMapping(DashboardRoutes.FAILED_JOBS_FORGET_MATCHING)
    Mono<String> forgetMatching(ServerWebExchange exchange) {
        return exchange.getFormData().flatMap(form -> matching(form, exchange, (filter, expected) ->
                forgetAll(FailedJobSearch.uuids(bus::read, filter.queue(), filter.text(), filter.from(), filter.to(),
                        expected)).map(forgotten -> "Forgot " + forgotten
                        + " failed jobs matching " + filter.describe())));
    }

    @PostMapping(DashboardRoutes.FAILED_JOBS_FLUSH)
    Mono<String> flush(ServerWebExchange exchange) {
        return exchange.getFormData().flatMap(form -> {
            int hours = hours(form, 0);
            if (hours < 0) {
                return Mono.just(Notices.redirect(exchange, back(form), "Nothing flushed: hours must be a whole number"));
            }
            String queue = form.getFirst("queue") == null || form.getFirst("queue").isBlank() ? null
                    : form.getFirst("queue").trim();
            return Submit.command(bus, new Command.RemoveFailedJobs(hours, queue, false))
                    .map(result -> Notices.redirect(exchange, back(form), QueuesScreen.outcome(result, r ->
                            "Flushed " + ((Result.FailedJobsRemoved) r).removed() + " failed jobs"
                                    + (queue == null ? "" : " of " + queue)
                                    + (hours > 0 ? " that failed at least " + hours + " hours ago" : ""))));
        });
    }

    @PostMapping(DashboardRoutes.FAILED_JOBS_PRUNE)
    Mono<String> prune(ServerWebExchange exchange) {
        return exchange.getFormData().flatMap(form -> {
            int hours = hours(form, 24);
            if (hours < 0) {
                return Mono.just(Notices.redirect(exchange, back(form), "Nothing pruned: hours must be a whole number"));
            }
            return Submit.command(bus, new Command.RemoveFailedJobs(hours, null, true))
                    .map(result -> Notices.redirect(exchange, back(form), QueuesScreen.outcome(result, r ->
                            "Pruned " + ((Result.FailedJobsRemoved) r).removed()
                                    + " failed jobs older than " + hours + " hours")));
        });
    }

    /** An action over every row of a confirmed search, refused when the search no longer matches that count. */
    private interface MatchingAction {
        Mono<String> apply(FailedJobFilter filter, long expected);
    }

    private Mono<String> matching(MultiValueMap<String, String> form, ServerWebExchange exchange,
                                  MatchingAction action) {
        FailedJobFilter filter;
        long asOf;
        long expected;
        try {
            asOf = Long.parseLong(form.getFirst("asOf"));
            expected = Long.parseLong(form.getFirst("expected"));
            filter = FailedJobFilter.of(form).asOf(asOf);
        } catch (IllegalArgumentException | NullPointerException e) {
            return Mono.just(Notices.redirect(exchange, back(form), "Nothing done: the confirmation form is incomplete"));
        }
        long now = count(filter);
        if (now != expected) {
            return Mono.just(Notices.redirect(exchange, back(form), "Nothing done: " + filter.describe() + " now matches "
                    + now + " failed jobs, not " + expected + ". Check the list and confirm again."));
        }
        return action.apply(filter, expected).map(notice -> Notices.redirect(exchange, back(form), notice));
    }

    private long count(FailedJobFilter filter) {
        return FailedJobSearch.page(bus::read, filter.queue(), filter.text(), filter.from(), filter.to(), 1, null)
                .total();
    }

    private Mono<Long> retryInSteps(FailedJobSelector selector, long sofar) {
        return Submit.command(bus, new Command.RetryFailedJobs(selector, FailedJobs.BULK_STEP)).flatMap(result -> {
            if (!(result instanceof Result.FailedJobsRetried step)) {
                return Mono.just(sofar);
            }
            return step.retried() == 0 || step.remaining() == 0 ? Mono.just(sofar + step.retried())
                    : retryInSteps(selector, sofar + step.retried());
        });
    }

    private Mono<Long> forgetAll(List<String> uuids) {
        return Flux.fromIterable(uuids)
                .flatMap(uuid -> Submit.command(bus, new Command.ForgetFailedJob(uuid)), FORGET_CONCURRENCY)
                .filter(result -> result instanceof Result.FailedJobsRemoved)
                .count();
    }

    private static List<String> ids(MultiValueMap<String, String> form) {
        List<String> values = form.get("ids");
        return values == null ? List.of() : new ArrayList<>(new LinkedHashSet<>(values));
    }

    private static int hours(MultiValueMap<String, String> form, int otherwise) {
        String value = form.getFirst("hours");
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        try {
            return Math.max(0, Math.min(1_000_000, Integer.parseInt(value.trim())));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String back(MultiValueMap<String, String> form) {
        String back = form.getFirst("back");
        return back == null || back.isEmpty() ? DashboardRoutes.FAILED_JOBS : back;
    }
}
