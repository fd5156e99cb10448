package io.regina.docker;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.ComposeContainer;
import org.testcontainers.containers.ContainerState;
import org.testcontainers.containers.wait.strategy.Wait;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped {@code Dockerfile} and {@code docker-compose.yml}, tested: build the image from the packaged
 * jar, start the three-node compose cluster, push through one node, kill the leader's container, and pop
 * the message from another node. Without a Docker engine (as on the build machines) it is skipped, and
 * says so on standard output.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ComposeClusterIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int HTTP = 6632;
    private static final List<String> SERVICES = List.of("n1-1", "n2-1", "n3-1");
    private static final Duration ATTEMPT = Duration.ofSeconds(15);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void dockerEngine() {
        boolean available;
        try {
            available = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            available = false;
        }
        if (!available) {
            System.out.println("ComposeClusterIT SKIPPED: no Docker engine found, so the Dockerfile and "
                    + "docker-compose.yml cluster were not tested here.");
        }
        Assumptions.assumeTrue(available, "no Docker engine: the compose cluster test is skipped");
    }

    @Test
    void pushThroughOneNodeKillTheLeaderPopFromAnother() throws Exception {
        ComposeContainer compose = new ComposeContainer(new File("docker-compose.yml"))
                .withBuild(true)
                .withRemoveVolumes(true)
                .withStartupTimeout(Duration.ofMinutes(5));
        for (String service : SERVICES) {
            compose = compose.withExposedService(service, HTTP, Wait.forHttp("/health").forStatusCode(200)
                    .withStartupTimeout(Duration.ofMinutes(5)));
        }
        compose.start();
        try {
            String first = url(compose, SERVICES.get(0));
            String body = "{\"items\":[{\"queue\":\"compose\",\"transactionId\":\"compose-1\","
                    + "\"payload\":{\"key\":\"compose-1\"}}]}";
            assertThat(eventually(() -> send("POST", first + "/api/v1/push", body).statusCode() == 201))
                    .as("push through " + SERVICES.get(0)).isTrue();

            String leader = leaderOf(first);
            ContainerState leaderContainer = compose.getContainerByServiceName(leader + "-1").orElseThrow();
            DockerClientFactory.instance().client().killContainerCmd(leaderContainer.getContainerId()).exec();

            String other = SERVICES.stream().filter(s -> !s.equals(leader + "-1")).findFirst().orElseThrow();
            String survivor = url(compose, other);
            String[] popped = new String[1];
            assertThat(eventually(() -> {
                HttpResponse<String> pop = send("GET", survivor + "/api/v1/pop/queue/compose?autoAck=true", null);
                if (pop.statusCode() != 200) {
                    return false;
                }
                popped[0] = JSON.readTree(pop.body()).get("messages").get(0).get("data").get("key").asString();
                return true;
            })).as("pop from " + other + " after killing " + leader).isTrue();
            assertThat(popped[0]).isEqualTo("compose-1");
        } finally {
            compose.stop();
        }
    }

    private static String url(ComposeContainer compose, String service) {
        return "http://" + compose.getServiceHost(service, HTTP) + ":" + compose.getServicePort(service, HTTP);
    }

    private String leaderOf(String node) throws Exception {
        String[] leader = new String[1];
        assertThat(eventually(() -> {
            JsonNode id = JSON.readTree(send("GET", node + "/api/v1/cluster", null).body()).get("leaderId");
            leader[0] = id == null || id.isNull() ? null : id.asString();
            return leader[0] != null;
        })).as("a leader named by " + node).isTrue();
        return leader[0];
    }

    private HttpResponse<String> send(String method, String url, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(ATTEMPT)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Tries for up to 90 s (a new leader, a node still starting); a failed attempt counts as "not yet". */
    private static boolean eventually(Attempt attempt) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            try {
                if (attempt.succeeded()) {
                    return true;
                }
            } catch (Exception e) {
                // between leaders or not up yet: try again
            }
            Thread.sleep(500);
        }
        return false;
    }

    @FunctionalInterface
    private interface Attempt {
        boolean succeeded() throws Exception;
    }
}
