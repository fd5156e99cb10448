package io.regina.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/**
 * {@code queue:cluster}: the Raft group as the broker sees it; {@code add} and {@code remove} change its
 * members through the leader (docs/api-extensions.md, "Cluster membership").
 */
@Command(name = "queue:cluster",
        description = {"The cluster's members with role, match index, lag and last contact; or change them:",
            "  queue:cluster                                 show the members",
            "  queue:cluster add ID HOST:RAFTPORT[:HTTPPORT] add a node started with --regina.join=true",
            "  queue:cluster remove ID                       remove a member (the leader too)",
            "With HTTPPORT, add first checks that the new node serves on HOST:HTTPPORT.",
            "A change waits until the group has committed it (a new node first catches up)."})
final class ClusterCommand extends BrokerCommand {
    @Parameters(arity = "0..3", paramLabel = "ARGS", description = "Nothing, add ID HOST:RAFTPORT[:HTTPPORT], "
            + "or remove ID.")
    List<String> args = List.of();

    @Override
    int execute(BrokerClient broker) {
        if (args.isEmpty()) {
            return show(broker);
        }
        String action = args.get(0);
        if (action.equals("add") && args.size() == 3) {
            return add(broker, args.get(1), args.get(2));
        }
        if (action.equals("remove") && args.size() == 2) {
            return remove(broker, args.get(1));
        }
        throw usage("Usage: queue:cluster [add ID HOST:RAFTPORT[:HTTPPORT] | remove ID], got: "
                + String.join(" ", args));
    }

    private int show(BrokerClient broker) {
        BrokerClient.Answer answer = broker.get("/api/v1/cluster", Map.of());
        if (printedJson(answer)) {
            return ReginaCli.OK;
        }
        JsonNode cluster = answer.json();
        out().println("Node " + text(cluster, "nodeId") + " (" + text(cluster, "role") + "), leader "
                + (text(cluster, "leaderId").isEmpty() ? "unknown" : text(cluster, "leaderId")) + ", term "
                + number(cluster, "term") + ", commit index " + number(cluster, "commitIndex"));
        Table table = new Table("ID", "ADDRESS", "ROLE", "MATCH INDEX", "LAG", "LAST CONTACT");
        for (JsonNode peer : cluster.path("peers")) {
            table.row(text(peer, "id"), text(peer, "address"), text(peer, "role"), known(peer, "matchIndex"),
                    known(peer, "lag"), number(peer, "lastContactMs") < 0 ? "-"
                            : QueueCommands.age(number(peer, "lastContactMs")) + " ago");
        }
        table.print(out());
        return ReginaCli.OK;
    }

    private int add(BrokerClient broker, String id, String where) {
        String[] parts = where.split(":", -1);
        if (parts.length < 2 || parts.length > 3 || parts[0].isBlank() || !isPort(parts[1])
                || parts.length == 3 && !isPort(parts[2])) {
            throw usage("Expected HOST:RAFTPORT[:HTTPPORT] for the new node, got '" + where + "'");
        }
        if (parts.length == 3) {
            new BrokerClient("http://" + parts[0] + ":" + parts[2], token()).get("/health", Map.of());
        }
        ObjectNode body = BrokerClient.JSON.createObjectNode().put("id", id).put("address", parts[0] + ":" + parts[1]);
        return printMembers(broker.post("/api/v1/cluster/members", body), "Added " + id + " at " + parts[0] + ":"
                + parts[1] + ".");
    }

    private int remove(BrokerClient broker, String id) {
        return printMembers(broker.delete("/api/v1/cluster/members/" + BrokerClient.segment(id)), "Removed " + id
                + "; stop its process now (it no longer belongs to the group).");
    }

    private int printMembers(BrokerClient.Answer answer, String done) {
        if (printedJson(answer)) {
            return ReginaCli.OK;
        }
        out().println(done);
        Table table = new Table("ID", "ADDRESS");
        for (JsonNode member : answer.json().path("members")) {
            table.row(text(member, "id"), text(member, "address"));
        }
        table.print(out());
        return ReginaCli.OK;
    }

    private static boolean isPort(String text) {
        try {
            int port = Integer.parseInt(text);
            return port > 0 && port <= 65535;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String known(JsonNode node, String field) {
        long value = number(node, field);
        return value < 0 ? "-" : String.valueOf(value);
    }
}
