package io.regina.dashboard;

import io.regina.config.DashboardPorts;
import io.regina.config.DashboardSecurityConfiguration;
import io.regina.queue.ClusterInfo;
import io.regina.queue.ClusterStatus;
import io.regina.queue.FailedJob;
import io.regina.queue.Views;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.result.view.ViewResolver;
import org.thymeleaf.spring6.view.reactive.ThymeleafReactiveViewResolver;

import reactor.core.publisher.Mono;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.security.test.web.reactive.server.SecurityMockServerConfigurers.csrf;
import static org.springframework.security.test.web.reactive.server.SecurityMockServerConfigurers.mockUser;

/**
 * The dashboard's controllers over an in-memory bus, with the real security configuration and the
 * real templates: view names, model attributes, the role rules and the commands the forms submit.
 */
@WebFluxTest(controllers = {OverviewScreen.class, QueuesScreen.class, FailedJobsScreen.class, MessagesScreen.class,
        ClusterScreen.class, LoginScreen.class})
@Import({DashboardSecurityConfiguration.class, DashboardModel.class, DashboardScreensTest.Fixtures.class})
class DashboardScreensTest {

    @TestConfiguration
    static class Fixtures {
        @Bean
        ResettableBus bus() {
            return new ResettableBus();
        }

        @Bean
        ClusterInfo clusterInfo() {
            return () -> new ClusterStatus("n1", "LEADER", "n1", 3, 42, 42, 40,
                    List.of(new ClusterStatus.Peer("n1", "127.0.0.1:6642", "LEADER", 42, 42, 0, 0)));
        }

        @Bean
        MessageCounters counters() {
            return () -> new MessageCounters.Counts(10, 5, 4);
        }

        @Bean
        PayloadFormat payloads() {
            return new DashboardPorts.JacksonPayloadFormat();
        }

        /** Samples once, at start: no background read may fall into a test's count of a page's reads. */
        @Bean
        Activity activity(ResettableBus bus, MessageCounters counters) {
            return new Activity(bus, counters, 3_600_000);
        }

        @Bean
        RecordingViewResolver recordingViewResolver(ThymeleafReactiveViewResolver thymeleaf) {
            return new RecordingViewResolver(thymeleaf);
        }
    }

    @Autowired
    WebTestClient web;
    @Autowired
    ResettableBus bus;
    @Autowired
    RecordingViewResolver views;

    WebTestClient admin;
    WebTestClient viewer;

    @BeforeEach
    void clients() {
        views.reset();
        bus.reset();
        web = web.mutate().responseTimeout(java.time.Duration.ofSeconds(30)).build();
        admin = web.mutateWith(mockUser("ada").roles("ADMIN")).mutateWith(csrf());
        viewer = web.mutateWith(mockUser("vic").roles("VIEWER")).mutateWith(csrf());
    }

    private long failedCount() {
        return bus.read(s -> s.failedJobs().size());
    }

    private FailedJob failed(String uuid) {
        return bus.read(s -> s.failedJobs().get(uuid));
    }

    private List<FailedJob> failedRows() {
        return bus.read(s -> s.failedJobs().list(null, null, 0, 0, 100, null).items());
    }

    private long pending(String queue) {
        return bus.read(s -> s.queue(queue).depth().pending());
    }

    private boolean paused(String queue) {
        return bus.read(s -> s.queue(queue).paused());
    }

    private List<Views.MessageView> browse(String queue) {
        return bus.read(s -> s.browse(queue, "Default", 0, 100));
    }

    private String get(WebTestClient client, String path) {
        return client.get().uri(path).exchange().expectStatus().isOk().expectBody(String.class).returnResult()
                .getResponseBody();
    }

    private WebTestClient.ResponseSpec post(WebTestClient client, String path, String... fields) {
        org.springframework.util.LinkedMultiValueMap<String, String> form = new org.springframework.util.LinkedMultiValueMap<>();
        for (int i = 0; i < fields.length; i += 2) {
            form.add(fields[i], fields[i + 1]);
        }
        return client.post().uri(path).contentType(MediaType.APPLICATION_FORM_URLENCODED)
                .body(BodyInserters.fromFormData(form)).exchange();
    }

    @Test
    void everyScreenNeedsALogin() {
        web.get().uri("/dashboard/failed-jobs").exchange().expectStatus().is3xxRedirection()
                .expectHeader().valueEquals("Location", "/login");
        String login = web.get().uri("/login").exchange().expectStatus().isOk().expectBody(String.class)
                .returnResult().getResponseBody();
        assertThat(views.last().view()).isEqualTo("login/form");
        assertThat(login).contains("name=\"_csrf\"").contains("name=\"username\"");
        web.get().uri("/dashboard/assets/dashboard.css").exchange().expectStatus().isOk();
    }

    @Test
    void theRootLeadsToTheDashboardAsQueensDoes() {
        web.get().uri("/").exchange().expectStatus().is3xxRedirection()
                .expectHeader().valueEquals("Location", "/dashboard");
    }

    @Test
    void overviewShowsTotalsAndTheNode() {
        FailedJobs.push(bus, "emails", "{\"n\":1}");
        FailedJobs.aFailedJob(bus, "reports", "{}", "boom");
        get(viewer, "/dashboard");
        assertThat(views.last().view()).isEqualTo("overview/index");
        Activity.Totals totals = (Activity.Totals) views.last().get("totals");
        assertThat(totals.queues()).isEqualTo(2);
        assertThat(totals.pending()).isEqualTo(1);
        assertThat(totals.failed()).isEqualTo(1);
        assertThat(((ClusterStatus) views.last().get("cluster")).role()).isEqualTo("LEADER");
    }

    @Test
    void liveFeedSendsTotalsAndSamples() {
        String first = viewer.get().uri("/dashboard/overview/stream").accept(MediaType.TEXT_EVENT_STREAM).exchange()
                .expectStatus().isOk().returnResult(String.class).getResponseBody().blockFirst();
        assertThat(first).contains("\"totals\"").contains("\"samples\"").contains("\"cluster\"");
    }

    @Test
    void queuesListFiltersByNameAndShowsControlsToAdminsOnly() {
        FailedJobs.push(bus, "emails.welcome", "{}");
        FailedJobs.push(bus, "reports", "{}");
        String html = get(admin, "/dashboard/queues?name=mail");
        assertThat(views.last().view()).isEqualTo("queues/list");
        @SuppressWarnings("unchecked")
        List<Views.QueueSummary> queues = (List<Views.QueueSummary>) views.last().get("queues");
        assertThat(queues).extracting(Views.QueueSummary::name).containsExactly("emails.welcome");
        assertThat(html).contains("/dashboard/queues/emails.welcome/clear");
        assertThat(get(viewer, "/dashboard/queues")).doesNotContain("/clear").doesNotContain("/pause");
    }

    @Test
    void queueDetailPagesItsPartitions() {
        FailedJobs.push(bus, "orders", "{\"id\":7}");
        get(admin, "/dashboard/queues/orders");
        assertThat(views.last().view()).isEqualTo("queues/detail");
        assertThat(((Views.QueueSummary) views.last().get("queue")).name()).isEqualTo("orders");
        assertThat((List<?>) views.last().get("partitions")).hasSize(1);
        assertThat((List<?>) views.last().get("messages")).hasSize(1);
        assertThat(views.last().get("browsed")).isEqualTo("Default");
        assertThat((long) views.last().get("oldestPendingCreatedAt")).as("the pending message's creation time")
                .isPositive();
        web.mutateWith(mockUser("ada").roles("ADMIN")).get().uri("/dashboard/queues/nope").exchange()
                .expectStatus().isNotFound();
    }

    @Test
    void eachPageIsBuiltFromOneRead() {
        String uuid = FailedJobs.aFailedJob(bus, "orders", "{}", "boom");
        FailedJobs.push(bus, "orders", "{\"id\":7}");
        for (String page : List.of("/dashboard", "/dashboard/queues", "/dashboard/queues/orders",
                "/dashboard/failed-jobs?queue=orders", "/dashboard/failed-jobs/" + uuid, "/dashboard/messages?key=x")) {
            bus.takeReads();
            get(viewer, page);
            assertThat(bus.takeReads()).as(page).isEqualTo(1);
        }
    }

    @Test
    void aTextSearchFindsTheOldestMatchThroughTheWordIndexWithoutReadingTheRows() throws InterruptedException {
        FailedJobs.aFailedJob(bus, "mail", "{}", "needle");
        Thread.sleep(2);
        FailedJobs.manyFailedJobs(bus, "mail", 25_000, "hay");
        assertThat(failedCount()).isEqualTo(25_001);

        bus.takeReads();
        get(admin, "/dashboard/failed-jobs?q=needle");
        assertThat((List<?>) views.last().get("jobs")).extracting(row -> ((FailedJob) row).error())
                .containsExactly("needle");
        assertThat(views.last().get("total")).isEqualTo(1L);
        assertThat(bus.takeReads()).as("the log time, one step for the page and one for its count").isEqualTo(3);
    }

    @Test
    void pauseAndClearSubmitCommands() {
        FailedJobs.push(bus, "jobs", "{}");
        post(admin, "/dashboard/queues/jobs/pause").expectStatus().is3xxRedirection()
                .expectHeader().valueEquals("Location", "/dashboard/queues/jobs");
        assertThat(paused("jobs")).isTrue();
        post(admin, "/dashboard/queues/jobs/clear", "back", "/dashboard/queues").expectStatus().is3xxRedirection()
                .expectHeader().valueEquals("Location", "/dashboard/queues");
        assertThat(pending("jobs")).isZero();
    }

    @Test
    void failedJobsListSearchesAndOffersBulkActionsWithTheExactCount() {
        FailedJobs.aFailedJob(bus, "mail", "{\"to\":\"a\"}", "SMTP timeout");
        FailedJobs.aFailedJob(bus, "mail", "{\"to\":\"b\"}", "bad address");
        FailedJobs.aFailedJob(bus, "sms", "{}", "SMTP timeout");
        String html = get(admin, "/dashboard/failed-jobs?queue=mail&q=timeout");
        assertThat(views.last().view()).isEqualTo("failed-jobs/list");
        assertThat((List<?>) views.last().get("jobs")).hasSize(1);
        assertThat(views.last().get("total")).isEqualTo(1L);
        assertThat(((FailedJobFilter) views.last().get("filter")).queue()).isEqualTo("mail");
        assertThat(html).contains("Retry all 1 matching").contains("Forget all 1 matching");

        get(admin, "/dashboard/failed-jobs?limit=2");
        assertThat((List<?>) views.last().get("jobs")).hasSize(2);
        String next = ((io.regina.queue.FailedJobTable.Page) views.last().get("page")).nextCursor();
        assertThat(next).isNotNull();
        get(admin, "/dashboard/failed-jobs?limit=2&cursor=" + next);
        assertThat((List<?>) views.last().get("jobs")).hasSize(1);
    }

    @Test
    void viewersSeeNoMutatingControlsAndTheirPostsAreForbidden() {
        String uuid = FailedJobs.aFailedJob(bus, "mail", "{}", "boom");
        String list = get(viewer, "/dashboard/failed-jobs");
        assertThat(views.last().get("operator")).isInstanceOf(Mono.class);
        assertThat(list).contains("vic (viewer)");
        assertThat(list).doesNotContain("Retry").doesNotContain("Forget").doesNotContain("Flush");
        String detail = get(viewer, "/dashboard/failed-jobs/" + uuid);
        assertThat(detail).doesNotContain("edit-payload").doesNotContain("/retry");
        post(viewer, "/dashboard/failed-jobs/" + uuid + "/retry").expectStatus().isForbidden();
        post(viewer, "/dashboard/failed-jobs/" + uuid + "/forget").expectStatus().isForbidden();
        post(viewer, "/dashboard/queues/mail/clear").expectStatus().isForbidden();
        assertThat(failed(uuid)).isNotNull();
    }

    @Test
    void aPostWithoutTheCsrfTokenIsForbidden() {
        String uuid = FailedJobs.aFailedJob(bus, "mail", "{}", "boom");
        web.mutateWith(mockUser("ada").roles("ADMIN")).post().uri("/dashboard/failed-jobs/" + uuid + "/forget")
                .contentType(MediaType.APPLICATION_FORM_URLENCODED).exchange().expectStatus().isForbidden();
        assertThat(failed(uuid)).isNotNull();
    }

    @Test
    void retryAndForgetOneRedirectWithANotice() {
        String retried = FailedJobs.aFailedJob(bus, "mail", "{\"n\":1}", "boom");
        String forgotten = FailedJobs.aFailedJob(bus, "mail", "{\"n\":2}", "boom");
        post(admin, "/dashboard/failed-jobs/" + retried + "/retry", "back", "/dashboard/failed-jobs?queue=mail")
                .expectStatus().is3xxRedirection()
                .expectHeader().valueEquals("Location", "/dashboard/failed-jobs?queue=mail")
                .expectCookie().exists(Notices.COOKIE);
        post(admin, "/dashboard/failed-jobs/" + forgotten + "/forget").expectStatus().is3xxRedirection();
        assertThat(failedCount()).isZero();
        assertThat(pending("mail")).isEqualTo(1);
        post(admin, "/dashboard/failed-jobs/" + forgotten + "/forget", "back", "https://evil.example/")
                .expectStatus().is3xxRedirection().expectHeader().valueEquals("Location", "/dashboard");
    }

    @Test
    void detailPrettyPrintsAndEditAndRetryPushesTheEditedPayload() {
        String uuid = FailedJobs.aFailedJob(bus, "mail", "{\"to\":\"a\",\"n\":1.10}", "boom");
        get(admin, "/dashboard/failed-jobs/" + uuid);
        assertThat(views.last().view()).isEqualTo("failed-jobs/detail");
        assertThat(((FailedJob) views.last().get("job")).uuid()).isEqualTo(uuid);
        assertThat((String) views.last().get("payload")).contains("\n").contains("\"to\" : \"a\"").contains("1.10");

        post(admin, "/dashboard/failed-jobs/" + uuid + "/retry", "data", "{ not json").expectStatus()
                .is3xxRedirection().expectHeader().valueEquals("Location", "/dashboard/failed-jobs/" + uuid);
        assertThat(failed(uuid)).isNotNull();

        post(admin, "/dashboard/failed-jobs/" + uuid + "/retry", "data", "{\n  \"to\" : \"b\"\n}")
                .expectStatus().is3xxRedirection();
        assertThat(failed(uuid)).isNull();
        assertThat(browse("mail"))
                .extracting(Views.MessageView::data).contains("{\"to\":\"b\"}");
    }

    @Test
    void retrySelectedAndForgetSelectedTouchOnlyTheSelection() {
        String a = FailedJobs.aFailedJob(bus, "mail", "{}", "boom");
        String b = FailedJobs.aFailedJob(bus, "mail", "{}", "boom");
        String c = FailedJobs.aFailedJob(bus, "mail", "{}", "boom");
        post(admin, "/dashboard/failed-jobs/retry-selected", "ids", a, "ids", b).expectStatus().is3xxRedirection();
        assertThat(failedCount()).isEqualTo(1);
        assertThat(failed(c)).isNotNull();
        post(admin, "/dashboard/failed-jobs/forget-selected", "ids", c).expectStatus().is3xxRedirection();
        assertThat(failedCount()).isZero();
    }

    @Test
    void retryAllMatchingActsOnExactlyTheConfirmedCountOrNotAtAll() {
        FailedJobs.aFailedJob(bus, "mail", "{}", "SMTP timeout");
        FailedJobs.aFailedJob(bus, "mail", "{}", "SMTP timeout");
        FailedJobs.aFailedJob(bus, "mail", "{}", "bad address");
        FailedJobs.aFailedJob(bus, "sms", "{}", "SMTP timeout");
        get(admin, "/dashboard/failed-jobs?queue=mail&q=timeout");
        long asOf = (Long) views.last().get("asOf");
        assertThat(views.last().get("total")).isEqualTo(2L);

        post(admin, "/dashboard/failed-jobs/retry-matching", "queue", "mail", "q", "timeout", "from", "0", "to", "0",
                "asOf", String.valueOf(asOf), "expected", "3").expectStatus().is3xxRedirection();
        assertThat(failedCount()).isEqualTo(4);

        post(admin, "/dashboard/failed-jobs/retry-matching", "queue", "mail", "q", "timeout", "from", "0", "to", "0",
                "asOf", String.valueOf(asOf), "expected", "2").expectStatus().is3xxRedirection();
        assertThat(failedCount()).isEqualTo(2);
        assertThat(failedRows())
                .extracting(FailedJob::error).containsExactlyInAnyOrder("bad address", "SMTP timeout");
        assertThat(pending("mail")).isEqualTo(2);

        get(admin, "/dashboard/failed-jobs?q=timeout");
        post(admin, "/dashboard/failed-jobs/forget-matching", "q", "timeout", "asOf",
                String.valueOf(views.last().get("asOf")), "expected", "1").expectStatus().is3xxRedirection();
        assertThat(failedRows())
                .extracting(FailedJob::error).containsExactly("bad address");
    }

    @Test
    void flushAndPrune() {
        FailedJobs.aFailedJob(bus, "mail", "{}", "boom");
        FailedJobs.aFailedJob(bus, "sms", "{}", "boom");
        post(admin, "/dashboard/failed-jobs/prune", "hours", "24").expectStatus().is3xxRedirection();
        assertThat(failedCount()).isEqualTo(2);
        post(admin, "/dashboard/failed-jobs/flush", "queue", "mail").expectStatus().is3xxRedirection();
        assertThat(failedCount()).isEqualTo(1);
    }

    @Test
    void messageLookupAndCluster() {
        FailedJobs.push(bus, "orders", "{\"id\":9}");
        String id = bus.read(s -> s.browse("orders", "Default", 0, 1).get(0).id());
        get(viewer, "/dashboard/messages?key=" + id);
        assertThat(views.last().view()).isEqualTo("messages/lookup");
        assertThat((List<?>) views.last().get("messages")).hasSize(1);
        get(viewer, "/dashboard/cluster");
        assertThat(views.last().view()).isEqualTo("cluster/status");
        assertThat(((ClusterStatus) views.last().get("cluster")).peers()).hasSize(1);
    }
}
