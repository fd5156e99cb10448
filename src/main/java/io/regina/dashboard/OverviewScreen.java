package io.regina.dashboard;

import io.regina.queue.ClusterInfo;
import io.regina.queue.ClusterStatus;
import io.regina.queue.CommandBus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;
import reactor.core.publisher.Flux;

import java.util.List;

/** Overview: this node and the cluster, the broker's totals, and live charts of the last 15 minutes. */
@Controller
class OverviewScreen {
    private final CommandBus bus;
    private final ClusterInfo cluster;
    private final Activity activity;

    /** What the live feed sends every sample interval. */
    record Live(Activity.Totals totals, ClusterStatus cluster, List<Activity.Sample> samples, long windowMs,
                long intervalMs) { }

    OverviewScreen(CommandBus bus, ClusterInfo cluster, Activity activity) {
        this.bus = bus;
        this.cluster = cluster;
        this.activity = activity;
    }

    /** Queen serves its dashboard at the root; a Queen user's bookmark lands here. */
    @GetMapping(DashboardRoutes.ROOT)
    String root() {
        return "redirect:" + DashboardRoutes.OVERVIEW;
    }

    @GetMapping(DashboardRoutes.OVERVIEW)
    String overview(Model model) {
        model.addAttribute("screen", "overview");
        model.addAttribute("totals", bus.read(Activity.Totals::of));
        model.addAttribute("cluster", cluster.status());
        model.addAttribute("samples", activity.samples());
        model.addAttribute("intervalMs", activity.interval().toMillis());
        return "overview/index";
    }

    /** Server-sent events: the totals, the cluster and the whole sample window, once per interval. */
    @GetMapping(path = DashboardRoutes.OVERVIEW_STREAM, produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @ResponseBody
    Flux<ServerSentEvent<Live>> stream() {
        return Flux.interval(java.time.Duration.ZERO, activity.interval())
                .map(tick -> ServerSentEvent.builder(live()).event("overview").build());
    }

    Live live() {
        return new Live(bus.read(Activity.Totals::of), cluster.status(), activity.samples(),
                Activity.WINDOW.toMillis(), activity.interval().toMillis());
    }
}
