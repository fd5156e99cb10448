package io.regina.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

/** The queue commands (API.md B2): size, monitor, pause, resume, clear. */
final class QueueCommands {
    private QueueCommands() {
    }

    static String queuePath(String queue) {
        return "/api/v1/queues/" + BrokerClient.segment(queue);
    }

    @Command(name = "queue:size",
            description = "A queue's size (pending + delayed + reserved), each part, and the oldest pending age.")
    static final class Size extends BrokerCommand {
        @Parameters(index = "0", paramLabel = "QUEUE")
        String queue;

        @Override
        int execute(BrokerClient broker) {
            BrokerClient.Answer answer = broker.get(queuePath(queue) + "/size", Map.of());
            if (printedJson(answer)) {
                return ReginaCli.OK;
            }
            JsonNode size = answer.json();
            long pending = number(size, "pending");
            Table table = new Table("QUEUE", "SIZE", "PENDING", "DELAYED", "RESERVED", "OLDEST PENDING");
            table.row(queue, number(size, "size"), pending, number(size, "delayed"), number(size, "reserved"),
                    pending == 0 ? "-" : age(number(size, "oldestPendingAgeMs")));
            table.print(out());
            return ReginaCli.OK;
        }
    }

    @Command(name = "queue:monitor",
            description = {"Each queue's size against --max: OK, or ALERT when the size is above it.",
                "Exits with 1 when any queue is in ALERT, so a cron job or health check can act on it."})
    static final class Monitor extends BrokerCommand {
        @Parameters(arity = "1..*", split = ",", paramLabel = "QUEUE",
                description = "Queue names, comma- or space-separated.")
        List<String> queues;

        @Option(names = "--max", paramLabel = "N", defaultValue = "1000",
                description = "The largest size that is still OK (default: ${DEFAULT-VALUE}).")
        long max;

        @Override
        int execute(BrokerClient broker) {
            if (max < 0) {
                throw usage("--max must be 0 or more, got " + max);
            }
            List<String> names = queues.stream().map(String::trim).filter(name -> !name.isEmpty()).toList();
            if (names.isEmpty()) {
                throw usage("Name at least one queue, e.g. queue:monitor emails,reports");
            }
            Map<String, String> query = BrokerClient.query();
            query.put("queues", String.join(",", names));
            query.put("max", String.valueOf(max));
            BrokerClient.Answer answer = broker.get("/api/v1/monitor", query);
            JsonNode rows = answer.json();
            boolean alert = false;
            Table table = new Table("QUEUE", "SIZE", "MAX", "STATUS");
            for (JsonNode row : rows) {
                String status = text(row, "status");
                alert |= "ALERT".equals(status);
                table.row(text(row, "queue"), number(row, "size"), max, status);
            }
            if (!printedJson(answer)) {
                table.print(out());
            }
            return alert ? ReginaCli.FAILED : ReginaCli.OK;
        }
    }

    @Command(name = "queue:pause", description = "Pause a queue: it still accepts pushes but delivers nothing.")
    static final class Pause extends BrokerCommand {
        @Parameters(index = "0", paramLabel = "QUEUE")
        String queue;

        @Override
        int execute(BrokerClient broker) {
            BrokerClient.Answer answer = broker.post(queuePath(queue) + "/pause",
                    BrokerClient.JSON.createObjectNode());
            if (!printedJson(answer)) {
                out().println("Paused queue '" + queue + "': pushes are accepted, nothing is delivered until "
                        + "queue:resume.");
            }
            return ReginaCli.OK;
        }
    }

    @Command(name = "queue:resume", description = "Resume a paused queue: it delivers again.")
    static final class Resume extends BrokerCommand {
        @Parameters(index = "0", paramLabel = "QUEUE")
        String queue;

        @Override
        int execute(BrokerClient broker) {
            BrokerClient.Answer answer = broker.post(queuePath(queue) + "/resume",
                    BrokerClient.JSON.createObjectNode());
            if (!printedJson(answer)) {
                out().println("Resumed queue '" + queue + "'.");
            }
            return ReginaCli.OK;
        }
    }

    @Command(name = "queue:clear",
            description = {"Delete a queue's pending and delayed messages (leased ones stay). Needs --force.",
                "Without --force it refuses (exit code 2) and changes nothing."})
    static final class Clear extends BrokerCommand {
        @Parameters(index = "0", paramLabel = "QUEUE")
        String queue;

        @Option(names = "--force", description = "Really delete the messages.")
        boolean force;

        @Override
        int execute(BrokerClient broker) {
            if (!force) {
                throw usage("Refusing to clear queue '" + queue + "' without --force: it deletes every pending "
                        + "and delayed message of the queue for good. Nothing was changed. Run: queue:clear "
                        + queue + " --force");
            }
            BrokerClient.Answer answer = broker.delete(queuePath(queue) + "/clear");
            if (!printedJson(answer)) {
                out().println("Cleared " + plural(number(answer.json(), "cleared"), "message") + " from queue '"
                        + queue + "'.");
            }
            return ReginaCli.OK;
        }
    }

    /** A duration in ms as "850ms", "12s", "5m 03s", "2h 07m", "3d 04h". */
    static String age(long ms) {
        if (ms < 1000) {
            return ms + "ms";
        }
        long seconds = ms / 1000;
        if (seconds < 60) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 60) {
            return String.format("%dm %02ds", minutes, seconds % 60);
        }
        long hours = minutes / 60;
        if (hours < 24) {
            return String.format("%dh %02dm", hours, minutes % 60);
        }
        return String.format("%dd %02dh", hours / 24, hours % 24);
    }
}
