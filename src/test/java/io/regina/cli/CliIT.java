package io.regina.cli;

import io.regina.testing.BrokerProcess;
import io.regina.testing.FreePorts;
import io.regina.testing.TestNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code queue:*} command, run in-process through picocli against the real broker (real Ratis, a
 * temporary data directory), checked by its output, its exit code and the broker's state afterwards.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class CliIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    WebTestClient http;

    @DynamicPropertySource
    static void node(DynamicPropertyRegistry registry) {
        TestNode.register(registry);
    }


    @BeforeEach
    void client() {
        http = WebTestClient.bindToServer().baseUrl(url()).responseTimeout(Duration.ofSeconds(60)).build();
    }

    private String url() {
        return "http://127.0.0.1:" + port;
    }

    /** Runs one CLI command against this broker (via REGINA_URL, as an operator's shell would). */
    private CliRun cli(String... args) {
        return CliRun.run(java.util.Map.of("REGINA_URL", url()), args);
    }

    private static String queue() {
        return "cli-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private JsonNode post(String path, String body) {
        byte[] bytes = http.post().uri(path).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().is2xxSuccessful().expectBody().returnResult().getResponseBodyContent();
        return bytes == null || bytes.length == 0 ? null : JSON.readTree(bytes);
    }

    private JsonNode get(String path) {
        byte[] bytes = http.get().uri(path).exchange().expectStatus().isOk().expectBody().returnResult()
                .getResponseBodyContent();
        return JSON.readTree(bytes);
    }

    private void push(String queue, String payload) {
        post("/api/v1/push", "{\"items\":[{\"queue\":\"" + queue + "\",\"payload\":" + payload + "}]}");
    }

    private JsonNode pop(String queue, int batch) {
        return get("/api/v1/pop/queue/" + queue + "?batch=" + batch);
    }

    private void popNothing(String queue) {
        http.get().uri("/api/v1/pop/queue/" + queue).exchange().expectStatus().isNoContent();
    }

    private long size(String queue) {
        return get("/api/v1/queues/" + queue + "/size").get("size").asLong();
    }

    /** Makes {@code count} failed jobs in {@code queue} (retryLimit 0, failed acks), oldest first; their uuids. */
    private List<String> failedJobs(String queue, int count, String error) {
        post("/api/v1/configure", "{\"queue\":\"" + queue + "\",\"options\":{\"retryLimit\":0}}");
        for (int i = 0; i < count; i++) {
            push(queue, "{\"n\":" + i + "}");
            JsonNode message = pop(queue, 1).get("messages").get(0);
            JsonNode ack = post("/api/v1/ack", "{\"transactionId\":\"" + message.get("transactionId").asString()
                    + "\",\"partitionId\":\"" + message.get("partitionId").asString() + "\",\"leaseId\":\""
                    + message.get("leaseId").asString() + "\",\"status\":\"failed\",\"error\":"
                    + JSON.writeValueAsString(error) + "}").get(0);
            assertThat(ack.get("dlq").asBoolean()).isTrue();
        }
        List<String> uuids = new ArrayList<>();
        get("/api/v1/failed-jobs?queue=" + queue).get("items").forEach(row -> uuids.add(row.get("uuid").asString()));
        assertThat(uuids).hasSize(count);
        return uuids;
    }

    private static void assertOk(CliRun run) {
        assertThat(run.exitCode()).as(run.toString()).isZero();
    }

    @Test
    void failedListsTheRowsAsATableAndPagesWithTheCursor() {
        String q = queue();
        List<String> uuids = failedJobs(q, 3, "Mailer exploded\n  at Mailer.send(Mailer.java:42)");

        CliRun run = cli("queue:failed", "--queue=" + q);
        assertOk(run);
        String[] lines = run.out().split("\n");
        assertThat(lines[0].split("\\s{2,}")).containsExactly("UUID", "QUEUE", "FAILED AT", "ATTEMPTS", "ERROR");
        for (int i = 0; i < 3; i++) {
            String[] cells = lines[i + 1].split("\\s{2,}");
            assertThat(cells[0]).isEqualTo(uuids.get(i));
            assertThat(cells[1]).isEqualTo(q);
            assertThat(cells[2]).endsWith("Z");
            assertThat(cells[3]).isEqualTo("1");
            assertThat(cells[4]).isEqualTo("Mailer exploded");
        }
        assertThat(run.out()).doesNotContain("Mailer.java").contains("Showing 3 of 3 failed jobs.")
                .doesNotContain("Next page");

        CliRun first = cli("queue:failed", "--queue=" + q, "--limit=2");
        assertOk(first);
        assertThat(first.out()).contains(uuids.get(0)).contains(uuids.get(1)).doesNotContain(uuids.get(2))
                .contains("Showing 2 of 3 failed jobs.");
        String cursor = first.out().lines().filter(l -> l.startsWith("Next page: --cursor=")).findFirst()
                .orElseThrow().substring("Next page: --cursor=".length());
        CliRun second = cli("queue:failed", "--queue=" + q, "--limit=2", "--cursor=" + cursor);
        assertOk(second);
        assertThat(second.out()).contains(uuids.get(2)).doesNotContain(uuids.get(0));

        CliRun json = cli("queue:failed", "--queue=" + q, "--json");
        assertOk(json);
        JsonNode page = JSON.readTree(json.out());
        assertThat(page.get("total").asLong()).isEqualTo(3);
        assertThat(page.get("items").get(0).get("error").asString()).contains("Mailer.java:42");

        assertThat(cli("queue:failed", "--queue=" + q, "--q=no-such-text").out()).isEqualTo("No failed jobs.\n");
        CliRun badTime = cli("queue:failed", "--from=yesterday");
        assertThat(badTime.exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(badTime.err()).contains("'from' must be an ISO-8601 time");
    }

    @Test
    void retryByIdsDeliversThemAgainAndReportsMissingIds() {
        String q = queue();
        List<String> uuids = failedJobs(q, 3, "boom");

        CliRun run = cli("queue:retry", uuids.get(0), uuids.get(1));
        assertOk(run);
        assertThat(run.out()).isEqualTo("Retried 2 job(s).\n");
        assertThat(run.err()).isEmpty();
        JsonNode delivered = pop(q, 10).get("messages");
        assertThat(delivered).hasSize(2);
        assertThat(delivered.get(0).get("attempts").asInt()).isEqualTo(1);

        String unknown = UUID.randomUUID().toString();
        CliRun missing = cli("queue:retry", unknown);
        assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(ReginaCli.FAILED);
        assertThat(missing.out()).contains("Retried 0 job(s).");
        assertThat(missing.err()).contains("Not found").contains(unknown);

        CliRun partly = cli("queue:retry", uuids.get(2), uuids.get(0));
        assertThat(partly.exitCode()).isEqualTo(ReginaCli.FAILED);
        assertThat(partly.out()).contains("Retried 1 job(s).");
        assertThat(partly.err()).contains(uuids.get(0)).doesNotContain(uuids.get(2));
        assertThat(get("/api/v1/failed-jobs?queue=" + q).get("total").asLong()).isZero();
    }

    @Test
    void retryAllWithQueueRetriesOnlyThatQueue() {
        String a = queue();
        String b = queue();
        failedJobs(a, 2, "boom a");
        List<String> inB = failedJobs(b, 1, "boom b");

        CliRun run = cli("queue:retry", "all", "--queue=" + a);
        assertOk(run);
        assertThat(run.out()).isEqualTo("Retried 2 job(s).\n");
        assertThat(pop(a, 10).get("messages")).hasSize(2);
        popNothing(b);
        assertThat(cli("queue:failed", "--queue=" + b).out()).contains(inB.get(0));
        assertThat(cli("queue:failed", "--queue=" + a).out()).isEqualTo("No failed jobs.\n");

        CliRun text = cli("queue:retry", "all", "--q=boom b", "--queue=" + b, "--json");
        assertOk(text);
        assertThat(JSON.readTree(text.out()).get("retried").asLong()).isEqualTo(1);
        assertThat(pop(b, 10).get("messages")).hasSize(1);
    }

    @Test
    void forgetDeletesOneAndAnUnknownUuidExitsOne() {
        String q = queue();
        List<String> uuids = failedJobs(q, 2, "boom");

        CliRun run = cli("queue:forget", uuids.get(0));
        assertOk(run);
        assertThat(run.out()).isEqualTo("Forgot failed job " + uuids.get(0) + ".\n");
        http.get().uri("/api/v1/failed-jobs/" + uuids.get(0)).exchange().expectStatus().isNotFound();
        assertThat(get("/api/v1/failed-jobs?queue=" + q).get("total").asLong()).isEqualTo(1);

        CliRun again = cli("queue:forget", uuids.get(0));
        assertThat(again.exitCode()).as(again.toString()).isEqualTo(ReginaCli.FAILED);
        assertThat(again.err()).contains(uuids.get(0)).contains("not found");
        assertThat(again.out()).isEmpty();
    }

    @Test
    void flushAndPruneReportCounts() throws InterruptedException {
        String q = queue();
        String other = queue();
        failedJobs(q, 2, "boom");
        failedJobs(other, 1, "boom");

        CliRun young = cli("queue:flush", "--hours=1", "--queue=" + q);
        assertOk(young);
        assertThat(young.out()).isEqualTo("Flushed 0 failed jobs.\n");
        CliRun flush = cli("queue:flush", "--queue=" + q);
        assertOk(flush);
        assertThat(flush.out()).isEqualTo("Flushed 2 failed jobs.\n");
        assertThat(get("/api/v1/failed-jobs?queue=" + q).get("total").asLong()).isZero();
        assertThat(get("/api/v1/failed-jobs?queue=" + other).get("total").asLong()).isEqualTo(1);

        CliRun prune = cli("queue:prune-failed");
        assertOk(prune);
        assertThat(prune.out()).isEqualTo("Pruned 0 failed jobs older than 24 hours.\n");
        assertThat(get("/api/v1/failed-jobs?queue=" + other).get("total").asLong()).isEqualTo(1);

        Thread.sleep(20);
        CliRun pruneAll = cli("queue:prune-failed", "--hours=0", "--json");
        assertOk(pruneAll);
        assertThat(JSON.readTree(pruneAll.out()).get("pruned").asLong()).isPositive();
        assertThat(get("/api/v1/failed-jobs?queue=" + other).get("total").asLong()).isZero();
    }

    @Test
    void sizeAndMonitorShowTheQueuesState() {
        String q = queue();
        for (int i = 0; i < 3; i++) {
            push(q, "{\"n\":" + i + "}");
        }
        assertThat(pop(q, 1).get("messages")).hasSize(1);
        post("/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"payload\":{},\"delayMs\":600000}]}");

        CliRun run = cli("queue:size", q);
        assertOk(run);
        String[] lines = run.out().split("\n");
        assertThat(lines[0].split("\\s{2,}")).containsExactly("QUEUE", "SIZE", "PENDING", "DELAYED", "RESERVED",
                "OLDEST PENDING");
        String[] cells = lines[1].split("\\s{2,}");
        assertThat(cells).hasSize(6);
        assertThat(List.of(cells).subList(0, 5)).containsExactly(q, "4", "2", "1", "1");
        assertThat(cells[5]).matches("\\d+(ms|s)");
        JsonNode json = JSON.readTree(cli("queue:size", q, "--json").out());
        assertThat(json.get("size").asLong()).isEqualTo(4);

        CliRun unknown = cli("queue:size", queue());
        assertThat(unknown.exitCode()).isEqualTo(ReginaCli.FAILED);
        assertThat(unknown.err()).contains("does not exist");

        String empty = queue();
        CliRun alert = cli("queue:monitor", q + "," + empty, "--max=3");
        assertThat(alert.exitCode()).as(alert.toString()).isEqualTo(ReginaCli.FAILED);
        assertThat(alert.out()).containsPattern(q + "\\s+4\\s+3\\s+ALERT").containsPattern(empty + "\\s+0\\s+3\\s+OK");
        CliRun ok = cli("queue:monitor", q, empty);
        assertOk(ok);
        assertThat(ok.out()).containsPattern(q + "\\s+4\\s+1000\\s+OK");
    }

    @Test
    void pausedQueueDeliversNothingUntilResumed() {
        String q = queue();
        push(q, "{\"job\":1}");

        CliRun pause = cli("queue:pause", q);
        assertOk(pause);
        assertThat(pause.out()).startsWith("Paused queue '" + q + "'");
        popNothing(q);
        push(q, "{\"job\":2}");
        popNothing(q);

        CliRun resume = cli("queue:resume", q);
        assertOk(resume);
        assertThat(resume.out()).isEqualTo("Resumed queue '" + q + "'.\n");
        assertThat(pop(q, 10).get("messages")).hasSize(2);

        CliRun unknown = cli("queue:pause", queue());
        assertThat(unknown.exitCode()).isEqualTo(ReginaCli.FAILED);
        assertThat(unknown.err()).contains("does not exist");
    }

    @Test
    void clearRefusesWithoutForceAndClearsWithIt() {
        String q = queue();
        push(q, "{\"n\":1}");
        push(q, "{\"n\":2}");

        CliRun refused = cli("queue:clear", q);
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ReginaCli.USAGE);
        assertThat(refused.err()).contains("--force").contains("Nothing was changed");
        assertThat(size(q)).isEqualTo(2);

        CliRun cleared = cli("queue:clear", q, "--force");
        assertOk(cleared);
        assertThat(cleared.out()).isEqualTo("Cleared 2 messages from queue '" + q + "'.\n");
        assertThat(size(q)).isZero();
        popNothing(q);
    }

    @Test
    void unreachableBrokerExitsThree() {
        String closed = "http://127.0.0.1:" + FreePorts.next();
        for (String[] args : List.of(new String[] {"queue:failed", "--url=" + closed},
                new String[] {"queue:size", "x", "--url=" + closed},
                new String[] {"queue:clear", "x", "--force", "--url=" + closed})) {
            CliRun run = CliRun.run(args);
            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ReginaCli.UNREACHABLE);
            assertThat(run.err()).contains("Cannot reach the broker at " + closed);
        }
    }

    @Test
    void theJarRunsTheCliWithoutStartingTheBroker() throws Exception {
        Path jar = BrokerProcess.jar();
        String q = queue();
        push(q, "{}");
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toAbsolutePath().toString(), "queue:size", q, "--url=" + url())
                .redirectErrorStream(true).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).contains(q).doesNotContain("Started ReginaApplication").doesNotContain("raft");

        Process missing = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toAbsolutePath().toString(), "queue:forget", "no-such-uuid", "--url=" + url())
                .redirectErrorStream(true).start();
        assertThat(missing.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(missing.exitValue()).isEqualTo(ReginaCli.FAILED);
    }
}
