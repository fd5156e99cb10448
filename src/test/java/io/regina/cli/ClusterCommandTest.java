package io.regina.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code queue:cluster}: the table, the add and remove requests, and their refusals and exit codes. */
class ClusterCommandTest {
    private static final String CLUSTER = "{\"nodeId\":\"n2\",\"role\":\"LEADER\",\"leaderId\":\"n2\",\"term\":3,"
            + "\"commitIndex\":120,\"appliedIndex\":120,\"lastSnapshotIndex\":-1,\"peers\":["
            + "{\"id\":\"n1\",\"address\":\"10.0.0.1:6642\",\"role\":\"FOLLOWER\",\"matchIndex\":117,"
            + "\"commitIndex\":117,\"lag\":3,\"lastContactMs\":40},"
            + "{\"id\":\"n2\",\"address\":\"10.0.0.2:6642\",\"role\":\"LEADER\",\"matchIndex\":120,"
            + "\"commitIndex\":120,\"lag\":0,\"lastContactMs\":0},"
            + "{\"id\":\"n3\",\"address\":\"10.0.0.3:6642\",\"role\":\"FOLLOWER\",\"matchIndex\":-1,"
            + "\"commitIndex\":-1,\"lag\":-1,\"lastContactMs\":-1}]}";
    private static final String MEMBERS = "{\"members\":[{\"id\":\"n1\",\"address\":\"10.0.0.1:6642\"},"
            + "{\"id\":\"n4\",\"address\":\"10.0.0.4:6642\"}]}";

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

    @Test
    void showsEveryPeerWithMatchIndexLagAndLastContact() {
        broker.on("GET", "/api/v1/cluster", 200, CLUSTER);
        CliRun run = cli("queue:cluster");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        String[] lines = run.out().split("\n");
        assertThat(lines[0]).contains("Node n2 (LEADER), leader n2, term 3, commit index 120");
        assertThat(lines[1]).startsWith("ID").contains("MATCH INDEX", "LAG", "LAST CONTACT");
        assertThat(lines[2]).startsWith("n1").contains("FOLLOWER", "117", " 3 ", "40ms ago");
        assertThat(lines[4]).startsWith("n3").doesNotContain("ago");
    }

    @Test
    void addPostsTheMemberAndPrintsTheNewMembers() {
        broker.on("POST", "/api/v1/cluster/members", 201, MEMBERS);
        CliRun run = cli("queue:cluster", "add", "n4", "10.0.0.4:6642");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(BrokerClient.JSON.readTree(broker.requests().get(0).body()))
                .isEqualTo(BrokerClient.JSON.readTree("{\"id\":\"n4\",\"address\":\"10.0.0.4:6642\"}"));
        assertThat(run.out()).contains("Added n4 at 10.0.0.4:6642.").contains("n4  10.0.0.4:6642");
    }

    @Test
    void addWithAnHttpPortFirstChecksTheNewNodeServes() {
        broker.on("GET", "/health", 200, "{\"status\":\"healthy\"}");
        broker.on("POST", "/api/v1/cluster/members", 201, MEMBERS);
        int httpPort = Integer.parseInt(broker.url().substring(broker.url().lastIndexOf(':') + 1));
        CliRun run = cli("queue:cluster", "add", "n4", "127.0.0.1:6642:" + httpPort);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(broker.requests()).extracting(StubBroker.Request::target)
                .containsExactly("/health", "/api/v1/cluster/members");
        assertThat(broker.requests().get(1).body()).contains("\"address\":\"127.0.0.1:6642\"");
    }

    @Test
    void removeDeletesTheMember() {
        broker.on("DELETE", "/api/v1/cluster/members/n3", 200, MEMBERS);
        CliRun run = cli("queue:cluster", "remove", "n3");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("Removed n3");
    }

    @Test
    void badArgumentsAreUsageErrorsWithoutARequest() {
        assertThat(cli("queue:cluster", "add", "n4").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:cluster", "add", "n4", "nohost").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:cluster", "add", "n4", "h:70000").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:cluster", "add", "n4", "h:1:x").exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(cli("queue:cluster", "remove").exitCode()).isEqualTo(ReginaCli.USAGE);
        CliRun run = cli("queue:cluster", "rename", "n1");
        assertThat(run.exitCode()).isEqualTo(ReginaCli.USAGE);
        assertThat(run.err()).contains("Usage: queue:cluster");
        assertThat(broker.requests()).isEmpty();
    }

    @Test
    void theBrokersRefusalsKeepTheirExitCodes() {
        broker.on("DELETE", "/api/v1/cluster/members/n9", 404,
                "{\"error\":\"no member has id 'n9'\",\"code\":\"MEMBER_NOT_FOUND\"}");
        broker.on("POST", "/api/v1/cluster/members", 400, "{\"error\":\"bad port\",\"code\":\"BAD_REQUEST\"}");
        CliRun unknown = cli("queue:cluster", "remove", "n9");
        assertThat(unknown.exitCode()).isEqualTo(ReginaCli.FAILED);
        assertThat(unknown.err()).contains("no member has id 'n9'");
        assertThat(cli("queue:cluster", "add", "n4", "h:1").exitCode()).isEqualTo(ReginaCli.USAGE);
    }

    @Test
    void helpNamesTheSubcommands() {
        CliRun run = CliRun.run("queue:help", "queue:cluster");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("add ID HOST:RAFTPORT[:HTTPPORT]", "remove ID", "--regina.join=true");
    }
}
