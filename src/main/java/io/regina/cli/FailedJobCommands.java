package io.regina.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The failed-jobs commands (API.md B1): list, retry, forget, flush, prune. */
final class FailedJobCommands {
    static final int ERROR_WIDTH = 100;

    private FailedJobCommands() {
    }

    @Command(name = "queue:failed", sortOptions = false,
            description = "List failed jobs, newest first: uuid, queue, failedAt, attempts, first line of the error.")
    static final class Failed extends BrokerCommand {
        @Option(names = "--queue", paramLabel = "QUEUE", description = "Only this queue.")
        String queue;

        @Option(names = "--q", paramLabel = "TEXT", description = "Only rows whose error or payload holds all "
                + "these words, each matched whole (4242 does not find 424242).")
        String text;

        @Option(names = "--from", paramLabel = "TIME", description = "Failed at or after this ISO-8601 time.")
        String from;

        @Option(names = "--to", paramLabel = "TIME", description = "Failed at or before this ISO-8601 time.")
        String to;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "50",
                description = "Rows per page, 1 to 1000 (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(names = "--cursor", paramLabel = "CURSOR", description = "The page after this cursor (printed "
                + "under the previous page).")
        String cursor;

        @Override
        int execute(BrokerClient broker) {
            if (limit < 1 || limit > 1000) {
                throw usage("--limit must be between 1 and 1000, got " + limit);
            }
            Map<String, String> query = BrokerClient.query();
            query.put("queue", queue);
            query.put("q", text);
            query.put("from", from);
            query.put("to", to);
            query.put("limit", String.valueOf(limit));
            query.put("cursor", cursor);
            BrokerClient.Answer answer = broker.get("/api/v1/failed-jobs", query);
            if (printedJson(answer)) {
                return ReginaCli.OK;
            }
            JsonNode page = answer.json();
            JsonNode items = page.get("items");
            if (items == null || items.isEmpty()) {
                out().println(cursor == null ? "No failed jobs." : "No more failed jobs.");
                return ReginaCli.OK;
            }
            Table table = new Table("UUID", "QUEUE", "FAILED AT", "ATTEMPTS", "ERROR");
            for (JsonNode row : items) {
                table.row(text(row, "uuid"), text(row, "queue"), text(row, "failedAt"), number(row, "attempts"),
                        firstLine(text(row, "error")));
            }
            table.print(out());
            out().println("Showing " + items.size() + " of " + plural(number(page, "total"), "failed job") + ".");
            String next = text(page, "nextCursor");
            if (!next.isEmpty()) {
                out().println("Next page: --cursor=" + next);
            }
            return ReginaCli.OK;
        }

        static String firstLine(String error) {
            String line = error.strip();
            int newline = line.indexOf('\n');
            if (newline >= 0) {
                line = line.substring(0, newline).stripTrailing();
            }
            return line.length() <= ERROR_WIDTH ? line : line.substring(0, ERROR_WIDTH - 1) + "…";
        }
    }

    @Command(name = "queue:retry", sortOptions = false,
            description = {"Push failed jobs back to their queues as fresh deliveries.",
                "Give failed-job uuids, or 'all' (every row, or the rows the filters select)."})
    static final class Retry extends BrokerCommand {
        @Parameters(arity = "1..*", paramLabel = "ID|all", description = "Failed-job uuids, or the word 'all'.")
        List<String> ids;

        @Option(names = "--queue", paramLabel = "QUEUE", description = "With 'all': only this queue.")
        String queue;

        @Option(names = "--q", paramLabel = "TEXT", description = "With 'all': only rows whose error or payload "
                + "holds all these words.")
        String text;

        @Option(names = "--from", paramLabel = "TIME", description = "With 'all': failed at or after this time.")
        String from;

        @Option(names = "--to", paramLabel = "TIME", description = "With 'all': failed at or before this time.")
        String to;

        @Override
        int execute(BrokerClient broker) {
            ObjectNode body = BrokerClient.JSON.createObjectNode();
            boolean all = ids.contains("all");
            boolean filtered = queue != null || text != null || from != null || to != null;
            if (all && ids.size() > 1) {
                throw usage("Give failed-job ids or 'all', not both");
            }
            if (all && filtered) {
                ObjectNode filter = body.putObject("filter");
                putIfSet(filter, "queue", queue);
                putIfSet(filter, "q", text);
                putIfSet(filter, "from", from);
                putIfSet(filter, "to", to);
            } else if (all) {
                body.put("all", true);
            } else if (filtered) {
                throw usage("--queue, --q, --from and --to select rows only with 'all', "
                        + "e.g. queue:retry all --queue=emails");
            } else {
                ArrayNode list = body.putArray("ids");
                ids.forEach(list::add);
            }
            BrokerClient.Answer answer = broker.post("/api/v1/failed-jobs/retry", body);
            JsonNode result = answer.json();
            List<String> missing = new ArrayList<>();
            JsonNode missingNode = result.get("missing");
            if (missingNode != null) {
                missingNode.forEach(id -> missing.add(id.asString()));
            }
            if (!printedJson(answer)) {
                out().println("Retried " + number(result, "retried") + " job(s).");
            }
            if (!missing.isEmpty()) {
                err().println("Not found (no such failed job, or already retried or forgotten): "
                        + String.join(", ", missing));
                return ReginaCli.FAILED;
            }
            return ReginaCli.OK;
        }

        private static void putIfSet(ObjectNode node, String field, String value) {
            if (value != null) {
                node.put(field, value);
            }
        }
    }

    @Command(name = "queue:forget", description = "Delete one failed job.")
    static final class Forget extends BrokerCommand {
        @Parameters(index = "0", paramLabel = "UUID", description = "The failed job's uuid.")
        String uuid;

        @Override
        int execute(BrokerClient broker) {
            BrokerClient.Answer answer = broker.delete("/api/v1/failed-jobs/" + BrokerClient.segment(uuid));
            if (!printedJson(answer)) {
                out().println("Forgot failed job " + uuid + ".");
            }
            return ReginaCli.OK;
        }
    }

    @Command(name = "queue:flush", sortOptions = false,
            description = "Delete failed jobs: all of them, or those that failed at least --hours ago.")
    static final class Flush extends BrokerCommand {
        @Option(names = "--hours", paramLabel = "H", description = "Only rows that failed at least H hours ago.")
        Integer hours;

        @Option(names = "--queue", paramLabel = "QUEUE", description = "Only this queue.")
        String queue;

        @Override
        int execute(BrokerClient broker) {
            if (hours != null && hours < 0) {
                throw usage("--hours must be 0 or more, got " + hours);
            }
            ObjectNode body = BrokerClient.JSON.createObjectNode();
            if (hours != null) {
                body.put("hours", hours);
            }
            if (queue != null) {
                body.put("queue", queue);
            }
            BrokerClient.Answer answer = broker.post("/api/v1/failed-jobs/flush", body);
            long flushed = number(answer.json(), "flushed");
            if (!printedJson(answer)) {
                out().println("Flushed " + plural(flushed, "failed job") + ".");
            }
            return ReginaCli.OK;
        }
    }

    @Command(name = "queue:prune-failed", description = "Delete failed jobs that failed more than --hours ago.")
    static final class PruneFailed extends BrokerCommand {
        @Option(names = "--hours", paramLabel = "H", defaultValue = "24",
                description = "Age in hours (default: ${DEFAULT-VALUE}).")
        int hours;

        @Override
        int execute(BrokerClient broker) {
            if (hours < 0) {
                throw usage("--hours must be 0 or more, got " + hours);
            }
            ObjectNode body = BrokerClient.JSON.createObjectNode();
            body.put("hours", hours);
            BrokerClient.Answer answer = broker.post("/api/v1/failed-jobs/prune", body);
            long pruned = number(answer.json(), "pruned");
            if (!printedJson(answer)) {
                out().println("Pruned " + plural(pruned, "failed job") + " older than " + plural(hours, "hour") + ".");
            }
            return ReginaCli.OK;
        }
    }
}
