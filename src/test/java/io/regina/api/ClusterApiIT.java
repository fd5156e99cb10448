package io.regina.api;

import io.regina.testing.RunningBroker;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /api/v1/cluster} and its membership changes on the embedded single node: the peer's new
 * fields, readiness, and the refusals that need no second node (the last member, an unknown id,
 * malformed input).
 */
class ClusterApiIT extends RunningBroker {

    @Test
    void theSingleNodeShowsItsLagAndLastContactAndIsReady() {
        JsonNode cluster = get("/api/v1/cluster", 200);
        JsonNode self = cluster.get("peers").get(0);
        assertThat(self.get("id").asString()).isEqualTo(cluster.get("nodeId").asString());
        assertThat(self.get("lag").asLong()).isZero();
        assertThat(self.get("lastContactMs").asLong()).isZero();
        assertThat(self.get("matchIndex").asLong()).isGreaterThanOrEqualTo(0);
        JsonNode readiness = get("/actuator/health/readiness", 200);
        assertThat(readiness.get("status").asString()).isEqualTo("UP");
        JsonNode raft = get("/actuator/health", 200).get("components").get("raft");
        assertThat(raft.get("details").get("reachesMajority").asBoolean()).isTrue();
    }

    @Test
    void theLastMemberCannotBeRemoved() {
        String self = get("/api/v1/cluster", 200).get("nodeId").asString();
        JsonNode refused = delete("/api/v1/cluster/members/" + self, 409);
        assertThat(refused.get("code").asString()).isEqualTo("LAST_MEMBER");
        assertThat(refused.get("error").asString()).contains("last member");
        assertThat(get("/api/v1/cluster", 200).get("peers")).hasSize(1);
    }

    @Test
    void badChangesAreRefusedWithTheirCodes() {
        assertThat(delete("/api/v1/cluster/members/nobody", 404).get("code").asString())
                .isEqualTo("MEMBER_NOT_FOUND");
        assertThat(post("/api/v1/cluster/members", "{\"id\":\"n2\",\"address\":\"127.0.0.1\"}", 400)
                .get("error").asString()).contains("host:port");
        assertThat(post("/api/v1/cluster/members", "{\"id\":\"n2\"}", 400).get("error").asString())
                .contains("'address' is required");
        assertThat(post("/api/v1/cluster/members", "[]", 400).get("code").asString()).isEqualTo("BAD_REQUEST");
    }

    private JsonNode delete(String path, int status) {
        byte[] bytes = http.delete().uri(path).accept(MediaType.APPLICATION_JSON).exchange().expectStatus()
                .isEqualTo(status).expectBody().returnResult().getResponseBodyContent();
        return JSON.readTree(bytes);
    }
}
