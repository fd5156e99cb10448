package io.regina.cli;

import io.regina.testing.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Argument parsing, refusals, request shapes and exit codes, against a canned HTTP server. */
class ReginaCliTest {
    private static final String PAGE = "{\"items\":[{\"uuid\":\"u-1\",\"queue\":\"emails\",\"failedAt\":"
            + "\"2026-01-02T03:04:05Z\",\"attempts\":3,\"error\":\"SMTP timeout\\n  at Mailer.send\"},"
            + "{\"uuid\":\"u-2\",\"queue\":\"reports\",\"failedAt\":\"2026-01-02T03:04:00Z\",\"attempts\":1,"
            + "\"error\":null}],\"nextCursor\":\"u-2\",\"total\":7}";

    private final StubBroker broker = new StubBroker();

    @AfterEach
    void stop() {
        broker.close();
    }

    private CliRun cli(String... args) {
        String[] withUrl = new String[args.length + 1];
        System.arraycopy(args, 0, withUrl, 0, args.length);
        withUrl[args.length] = "--url=" + broker.url();
        return CliRun.run(withUrl);
    }

    private JsonNode onlyRequestBody() {
        assertThat(broker.requests()).hasSize(1);
        return BrokerClient.JSON.readTree(broker.requests().get(0).body());
    }

    @Test
    void dispatchesOnlyQueueCommands() {
        assertThat(ReginaCli.handles(new String[] {"queue:failed"})).isTrue();
        assertThat(ReginaCli.handles(new String[] {"queue:anything", "--json"})).isTrue();
        assertThat(ReginaCli.handles(new String[] {})).isFalse();
        assertThat(ReginaCli.handles(new String[] {"--server.port=7000"})).isFalse();
        assertThat(ReginaCli.handles(null)).isFalse();
    }

    @Test
    void clearWithoutForceRefusesWithExitTwoAndNoHttpCall() {
        CliRun run = cli("queue:clear", "emails");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ReginaCli.USAGE);
        assertThat(run.err()).contains("Refusing to clear queue 'emails'").contains("--force")
                .contains("Nothing was changed");
        assertThat(run.out()).isEmpty();
        assertThat(broker.requests()).isEmpty();
    }

    @Test
    void theTokenComesFromTheOptionElseTheEnvironmentAndIsSentAsBearer() {
        broker.on("GET", "/api/v1/queues/emails/size", 200, "{\"size\":0,\"pending\":0,\"delayed\":0,\"reserved\":0}");
        assertThat(cli("queue:size", "emails").exitCode()).isZero();
        assertThat(CliRun.run(Map.of("REGINA_TOKEN", "from-env"), "queue:size", "emails",
                "--url=" + broker.url()).exitCode()).isZero();
        assertThat(CliRun.run(Map.of("REGINA_TOKEN", "from-env"), "queue:size", "emails",
                "--url=" + broker.url(), "--token=from-option").exitCode()).isZero();
        assertThat(broker.requests()).extracting(StubBroker.Request::authorization)
                .containsExactly(null, "Bearer from-env", "Bearer from-option");
    }

    @Test
    void clearWithForceDeletes() {
        broker.on("DELETE", "/api/v1/queues/emails/clear", 200, "{\"queue\":\"emails\",\"cleared\":3}");
        CliRun run = cli("queue:clear", "emails", "--force");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("Cleared 3 messages from queue 'emails'");
        assertThat(broker.requests()).extracting(StubBroker.Request::method).containsExactly("DELETE");
    }

    @Test
    void unknownCommandAndMissingArgumentsAreUsageErrors() {
        assertThat(cli("queue:nope").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:forget").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:retry").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:size").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:monitor").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:failed", "--limit=many").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:failed", "--limit=0").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:prune-failed", "--hours=-1").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:flush", "--hours=-1").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(CliRun.run().exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(broker.requests()).isEmpty();
    }

    @Test
    void workRefusesBadArgumentsWithExitTwoBeforeStartingAnything() {
        assertThat(cli("queue:work", "--job=x.Job", "--classpath=.").exitCode()).isEqualTo(ReginaCli.USAGE);
        CliRun none = cli("queue:work", "--queue=emails", "--job=x.Job", "--classpath=.", "--workers=0");
        assertThat(none.exitCode()).as(none.toString()).isEqualTo(ReginaCli.USAGE);
        assertThat(none.err()).contains("--workers");
        CliRun inverted = cli("queue:work", "--queue=emails", "--job=x.Job", "--classpath=.", "--min=3", "--max=2");
        assertThat(inverted.exitCode()).as(inverted.toString()).isEqualTo(ReginaCli.USAGE);
        assertThat(inverted.err()).contains("--min 3 --max 2");
        assertThat(CliRun.run("queue:help").out()).contains("queue:work");
        assertThat(CliRun.run("queue:work", "--help").out()).contains("--shutdown-grace", "--memory", "--timeout",
                "--min", "--max", "--cooldown");
        assertThat(broker.requests()).isEmpty();
    }

    @Test
    void helpExitsZero() {
        CliRun run = CliRun.run("queue:failed", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("queue:failed").contains("--cursor").contains("--url");
    }

    @Test
    void queueHelpListsEveryCommandAndTheExitCodes() {
        CliRun run = CliRun.run("queue:help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("queue:failed", "queue:retry", "queue:forget", "queue:flush",
                "queue:prune-failed", "queue:size", "queue:monitor", "queue:pause", "queue:resume", "queue:clear",
                "queue:cluster", "Exit codes:", "the broker is unreachable");
        CliRun one = CliRun.run("queue:help", "queue:clear");
        assertThat(one.exitCode()).isZero();
        assertThat(one.out()).contains("--force");
    }

    @Test
    void failedBuildsTheQueryAndPrintsATable() {
        broker.on("GET", "/api/v1/failed-jobs", 200, PAGE);
        CliRun run = cli("queue:failed", "--queue=emails", "--q=smtp time", "--from=2026-01-01T00:00:00Z",
                "--to=2026-01-03T00:00:00Z", "--limit=2", "--cursor=abc");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(broker.requests().get(0).target()).isEqualTo("/api/v1/failed-jobs?queue=emails&q=smtp+time"
                + "&from=2026-01-01T00%3A00%3A00Z&to=2026-01-03T00%3A00%3A00Z&limit=2&cursor=abc");
        String[] lines = run.out().split("\n");
        assertThat(lines[0]).startsWith("UUID").contains("QUEUE").contains("FAILED AT").contains("ATTEMPTS")
                .contains("ERROR");
        assertThat(lines[1]).startsWith("u-1").contains("emails").contains("2026-01-02T03:04:05Z")
                .contains(" 3 ").endsWith("SMTP timeout");
        assertThat(lines[2]).startsWith("u-2").contains("reports");
        assertThat(run.out()).doesNotContain("Mailer.send").contains("Showing 2 of 7 failed jobs.")
                .contains("Next page: --cursor=u-2");
    }

    @Test
    void failedWithJsonPrintsTheBrokersAnswer() {
        broker.on("GET", "/api/v1/failed-jobs", 200, PAGE);
        CliRun run = cli("queue:failed", "--json");
        assertThat(run.exitCode()).isZero();
        assertThat(broker.requests().get(0).target()).isEqualTo("/api/v1/failed-jobs?limit=50");
        assertThat(BrokerClient.JSON.readTree(run.out())).isEqualTo(BrokerClient.JSON.readTree(PAGE));
    }

    @Test
    void failedOnAnEmptyTable() {
        broker.on("GET", "/api/v1/failed-jobs", 200, "{\"items\":[],\"nextCursor\":null,\"total\":0}");
        assertThat(cli("queue:failed").out()).isEqualTo("No failed jobs.\n");
    }

    @Test
    void retryIdsSendsIds() {
        broker.on("POST", "/api/v1/failed-jobs/retry", 200, "{\"retried\":2,\"missing\":[]}");
        CliRun run = cli("queue:retry", "a", "b");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).isEqualTo("Retried 2 job(s).\n");
        assertThat(onlyRequestBody().toString()).isEqualTo("{\"ids\":[\"a\",\"b\"]}");
    }

    @Test
    void retryAllAloneSendsAllTrue() {
        broker.on("POST", "/api/v1/failed-jobs/retry", 200, "{\"retried\":5,\"missing\":[]}");
        assertThat(cli("queue:retry", "all").exitCode()).isZero();
        assertThat(onlyRequestBody().toString()).isEqualTo("{\"all\":true}");
    }

    @Test
    void retryAllWithFiltersSendsAFilter() {
        broker.on("POST", "/api/v1/failed-jobs/retry", 200, "{\"retried\":1,\"missing\":[]}");
        assertThat(cli("queue:retry", "all", "--queue=emails", "--q=smtp", "--from=2026-01-01T00:00:00Z",
                "--to=2026-01-02T00:00:00Z").exitCode()).isZero();
        assertThat(onlyRequestBody().toString()).isEqualTo("{\"filter\":{\"queue\":\"emails\",\"q\":\"smtp\","
                + "\"from\":\"2026-01-01T00:00:00Z\",\"to\":\"2026-01-02T00:00:00Z\"}}");
    }

    @Test
    void retryRefusesMixedSelectorsWithoutCallingTheBroker() {
        CliRun mixed = cli("queue:retry", "all", "u-1");
        assertThat(mixed.exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(mixed.err()).contains("not both");
        CliRun filteredIds = cli("queue:retry", "u-1", "--queue=emails");
        assertThat(filteredIds.exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(filteredIds.err()).contains("only with 'all'");
        assertThat(broker.requests()).isEmpty();
    }

    @Test
    void retryReportsMissingIdsWithExitOne() {
        broker.on("POST", "/api/v1/failed-jobs/retry", 200, "{\"retried\":1,\"missing\":[\"gone\"]}");
        CliRun run = cli("queue:retry", "u-1", "gone");
        assertThat(run.exitCode()).isEqualTo(ReginaCli.FAILED);
        assertThat(run.out()).contains("Retried 1 job(s).");
        assertThat(run.err()).contains("Not found").contains("gone");
    }

    @Test
    void forgetNotFoundExitsOneWithTheBrokersMessage() {
        broker.on("DELETE", "/api/v1/failed-jobs/nope", 404, "{\"error\":\"Failed job nope not found\"}");
        CliRun run = cli("queue:forget", "nope");
        assertThat(run.exitCode()).isEqualTo(ReginaCli.FAILED);
        assertThat(run.err()).contains("Failed job nope not found");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void flushAndPruneSendTheirOptions() {
        broker.on("POST", "/api/v1/failed-jobs/flush", 200, "{\"flushed\":4}");
        broker.on("POST", "/api/v1/failed-jobs/prune", 200, "{\"pruned\":1}");
        assertThat(cli("queue:flush").out()).isEqualTo("Flushed 4 failed jobs.\n");
        assertThat(cli("queue:flush", "--hours=2", "--queue=emails").exitCode()).isZero();
        assertThat(cli("queue:prune-failed").out()).isEqualTo("Pruned 1 failed job older than 24 hours.\n");
        assertThat(cli("queue:prune-failed", "--hours=1").exitCode()).isZero();
        assertThat(broker.requests()).extracting(StubBroker.Request::body).containsExactly("{}",
                "{\"hours\":2,\"queue\":\"emails\"}", "{\"hours\":24}", "{\"hours\":1}");
    }

    @Test
    void sizePrintsEveryPartAndEncodesTheQueueName() {
        broker.on("GET", "/api/v1/queues/my%20queue/size", 200, "{\"queue\":\"my queue\",\"size\":6,\"pending\":3,"
                + "\"delayed\":2,\"reserved\":1,\"oldestPendingAgeMs\":125000}");
        CliRun run = cli("queue:size", "my queue");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        String[] lines = run.out().split("\n");
        assertThat(lines[0].split("\\s{2,}")).containsExactly("QUEUE", "SIZE", "PENDING", "DELAYED", "RESERVED",
                "OLDEST PENDING");
        assertThat(lines[1].split("\\s{2,}")).containsExactly("my queue", "6", "3", "2", "1", "2m 05s");
    }

    @Test
    void monitorSplitsQueuesAndExitsOneOnAlert() {
        broker.on("GET", "/api/v1/monitor", 200, "[{\"queue\":\"a\",\"size\":5,\"status\":\"OK\"},"
                + "{\"queue\":\"b\",\"size\":50,\"status\":\"ALERT\"}]");
        CliRun run = cli("queue:monitor", "a,b", "--max=10");
        assertThat(run.exitCode()).isEqualTo(ReginaCli.FAILED);
        assertThat(broker.requests().get(0).target()).isEqualTo("/api/v1/monitor?queues=a%2Cb&max=10");
        assertThat(run.out()).containsPattern("a\\s+5\\s+10\\s+OK").containsPattern("b\\s+50\\s+10\\s+ALERT");

        broker.on("GET", "/api/v1/monitor", 200, "[{\"queue\":\"a\",\"size\":5,\"status\":\"OK\"}]");
        assertThat(cli("queue:monitor", "a").exitCode()).isZero();
    }

    @Test
    void pauseAndResumeOfAnUnknownQueueExitOne() {
        broker.on("POST", "/api/v1/queues/emails/pause", 200, "{\"queue\":\"emails\",\"paused\":true}");
        assertThat(cli("queue:pause", "emails").out()).startsWith("Paused queue 'emails'");
        CliRun unknown = cli("queue:resume", "emails");
        assertThat(unknown.exitCode()).isEqualTo(ReginaCli.FAILED);
        assertThat(unknown.err()).contains("not stubbed");
    }

    @Test
    void brokerErrorsMapToExitCodes() {
        broker.on("GET", "/api/v1/failed-jobs", 400, "{\"error\":\"'from' must be an ISO-8601 time\"}");
        CliRun bad = cli("queue:failed", "--from=yesterday");
        assertThat(bad.exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(bad.err()).contains("refused").contains("'from' must be an ISO-8601 time");

        broker.on("GET", "/api/v1/failed-jobs", 503, "<html>down</html>");
        CliRun down = cli("queue:failed");
        assertThat(down.exitCode()).isEqualTo(ReginaCli.FAILED);
        assertThat(down.err()).contains("HTTP 503");

        broker.on("GET", "/api/v1/failed-jobs", 200, "not json");
        assertThat(cli("queue:failed").exitCode()).isEqualTo(ReginaCli.FAILED);
    }

    @Test
    void unreachableBrokerExitsThree() {
        CliRun run = CliRun.run("queue:size", "emails", "--url=http://127.0.0.1:" + FreePorts.next());
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ReginaCli.UNREACHABLE);
        assertThat(run.err()).contains("Cannot reach the broker at http://127.0.0.1:");
    }

    @Test
    void invalidUrlIsAUsageError() {
        assertThat(CliRun.run("queue:size", "emails", "--url=nope").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(CliRun.run("queue:size", "emails", "--url=ftp://host").exitCode()).isEqualTo(ReginaCli.USAGE);
    }

    @Test
    void urlComesFromTheOptionThenReginaUrlThenTheDefault() {
        broker.on("POST", "/api/v1/queues/emails/resume", 200, "{\"queue\":\"emails\",\"paused\":false}");
        CliRun fromEnv = CliRun.run(Map.of("REGINA_URL", broker.url() + "/"), "queue:resume", "emails");
        assertThat(fromEnv.exitCode()).as(fromEnv.toString()).isZero();
        assertThat(broker.requests()).hasSize(1);

        CliRun optionWins = CliRun.run(Map.of("REGINA_URL", "http://127.0.0.1:" + FreePorts.next()),
                "queue:resume", "emails", "--url=" + broker.url());
        assertThat(optionWins.exitCode()).isZero();

        ReginaCli root = new ReginaCli(Map.of());
        assertThat(root.defaultUrl()).isEqualTo("http://127.0.0.1:6632");
    }

    @Test
    void formatsAgesAndErrorLines() {
        assertThat(QueueCommands.age(850)).isEqualTo("850ms");
        assertThat(QueueCommands.age(12_400)).isEqualTo("12s");
        assertThat(QueueCommands.age(303_000)).isEqualTo("5m 03s");
        assertThat(QueueCommands.age(7_620_000)).isEqualTo("2h 07m");
        assertThat(QueueCommands.age(273_600_000)).isEqualTo("3d 04h");
        assertThat(FailedJobCommands.Failed.firstLine("  boom\nstack")).isEqualTo("boom");
        assertThat(FailedJobCommands.Failed.firstLine("x".repeat(300))).hasSize(FailedJobCommands.ERROR_WIDTH);
    }
}
