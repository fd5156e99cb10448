package io.regina.api;

import io.regina.api.dto.SystemBodies;
import io.regina.queue.ClusterInfo;
import io.regina.queue.ClusterStatus;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.json.JsonMapper;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HealthControllerTest {

    private static final ClusterStatus LEADER = new ClusterStatus("n1", "LEADER", "n1", 1, 5, 5, -1, List.of());

    @Test
    void aServingNodeIsHealthyInQueensShape() {
        ResponseEntity<SystemBodies.Health> answer = new HealthController(() -> LEADER, "1.2.3").health();

        assertThat(answer.getStatusCode().value()).isEqualTo(200);
        assertThat(JsonMapper.builder().build().writeValueAsString(answer.getBody()))
                .isEqualTo("{\"status\":\"healthy\",\"database\":\"connected\",\"server\":\"regina\",\"version\":\"1.2.3\"}");
    }

    @Test
    void aNodeWhoseReplicationStoppedIsUnhealthyAndSaysWhy() {
        ClusterInfo stopped = new ClusterInfo() {
            @Override
            public ClusterStatus status() {
                return LEADER;
            }

            @Override
            public String stopped() {
                return "raft node n1 stopped: its log is closed after a failed write (a full disk?)";
            }
        };

        ResponseEntity<SystemBodies.Health> answer = new HealthController(stopped, "1.2.3").health();

        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getBody().status()).isEqualTo("unhealthy");
        assertThat(answer.getBody().database()).isEqualTo("disconnected");
        assertThat(answer.getBody().error()).contains("a full disk");
    }
}
