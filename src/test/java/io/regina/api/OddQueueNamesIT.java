package io.regina.api;

import io.regina.testing.TestNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.util.UriUtils;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whatever a queue is called, every endpoint that takes a queue name answers a 2xx or a 4xx with a JSON
 * body: never a 5xx (Queen's clients would retry it three times) and never a dropped connection. Names in
 * a body go through one check (QueueNames); names in a path are looked up as sent.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OddQueueNamesIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void node(DynamicPropertyRegistry registry) {
        TestNode.register(registry);
    }

    static Stream<String> names() {
        return Stream.of("", " ", "x".repeat(300), "x".repeat(3000), "队列-ü-🚀", "a/b", "%2F", "..", "a;b", "a\\b",
                "tab\there", "q?x=1#f");
    }

    @ParameterizedTest(name = "queue \"{0}\"")
    @MethodSource("names")
    void everyEndpointAnswersWithoutA5xx(String name) throws Exception {
        String quoted = JSON.writeValueAsString(name);
        String path = UriUtils.encodePathSegment(name, StandardCharsets.UTF_8);
        List<String> failures = new ArrayList<>();
        check(failures, "POST", "/api/v1/configure", "{\"queue\":" + quoted + "}");
        check(failures, "POST", "/api/v1/push", "{\"items\":[{\"queue\":" + quoted + ",\"payload\":{}}]}");
        check(failures, "POST", "/api/v1/transaction",
                "{\"operations\":[{\"type\":\"push\",\"items\":[{\"queue\":" + quoted + "}]}]}");
        check(failures, "GET", "/api/v1/pop/queue/" + path + "?batch=1", null);
        check(failures, "GET", "/api/v1/pop/queue/" + path + "/partition/" + path + "?batch=1", null);
        check(failures, "GET", "/api/v1/resources/queues/" + path, null);
        check(failures, "GET", "/api/v1/queues/" + path + "/size", null);
        check(failures, "GET", "/api/v1/monitor?queues=" + UriUtils.encodeQueryParam(name, StandardCharsets.UTF_8), null);
        check(failures, "GET", "/api/v1/dlq?queue=" + UriUtils.encodeQueryParam(name, StandardCharsets.UTF_8), null);
        check(failures, "POST", "/api/v1/queues/" + path + "/pause", "{}");
        check(failures, "POST", "/api/v1/queues/" + path + "/resume", "{}");
        check(failures, "DELETE", "/api/v1/queues/" + path + "/clear", null);
        check(failures, "POST", "/api/v1/consumer-groups/g/queues/" + path + "/seek", "{\"toEnd\":true}");
        check(failures, "DELETE", "/api/v1/consumer-groups/g/queues/" + path, null);
        check(failures, "DELETE", "/api/v1/resources/queues/" + path, null);
        assertThat(failures).isEmpty();
    }

    /** The decision of docs/api-extensions.md: a name no path could address is refused where it is named. */
    @Test
    void configureAndPushRefuseAnEmptyNameWith400() throws Exception {
        for (String[] call : new String[][] {{"/api/v1/configure", "{\"queue\":\"\"}"},
                {"/api/v1/push", "{\"items\":[{\"queue\":\"\"}]}"}}) {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + call[0]))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(call[1])).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(400);
            assertThat(JSON.readTree(answer.body()).path("code").asString()).isEqualTo("BAD_REQUEST");
        }
    }

    /** Records the call when it answers 5xx, a 4xx without a JSON error, or no answer at all. */
    private void check(List<String> failures, String method, String path, String body) {
        String call = method + " " + path.substring(0, Math.min(path.length(), 80));
        try {
            HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            int status = answer.statusCode();
            if (status >= 500) {
                failures.add(call + " -> " + status + " " + answer.body());
            } else if (status >= 400 && !answer.body().contains("\"error\"")) {
                failures.add(call + " -> " + status + " without a JSON error: " + answer.body());
            }
        } catch (IOException | InterruptedException e) {
            failures.add(call + " -> " + e);
        }
    }
}
