package io.regina.client;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * One request to the broker with Queen's client rules (API.md A1): a network error or a 5xx moves to the
 * next URL at once, and after every URL failed in a round the client waits the round's delay (1 s, then
 * 2 s) and tries again, three rounds in all. A 429 is not a broken node, so it waits the same delays on the
 * same URL; any other 4xx is thrown at once. The URL that answered last stays the first one tried.
 */
final class BrokerHttp {
    private final List<URI> urls;
    private final String token;
    private final Duration requestTimeout;
    private final List<Duration> retryDelays;
    private final Sleeper sleeper;
    private final JsonMapper json;
    private final HttpClient http;
    private volatile int current;

    /** How the client waits between rounds; tests pass one that does not sleep. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    /** An answer that is not a retryable failure: a 2xx, 3xx or 4xx, with its raw body (empty for 204). */
    record Answer(int status, byte[] body) {
    }

    BrokerHttp(List<URI> urls, String token, Duration connectTimeout, Duration requestTimeout,
               List<Duration> retryDelays, Sleeper sleeper, JsonMapper json) {
        this.urls = List.copyOf(urls);
        this.token = token;
        this.requestTimeout = requestTimeout;
        this.retryDelays = List.copyOf(retryDelays);
        this.sleeper = sleeper;
        this.json = json;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .build();
    }

    /**
     * Sends {@code method path} with {@code body} (JSON, or none when null); {@code longPoll} is how long the
     * broker may hold the answer on purpose, added to the request timeout. Throws {@link BrokerRefusedException}
     * for a 4xx and {@link BrokerUnavailableException} when every round failed.
     */
    Answer send(String method, String path, Object body, Duration longPoll) {
        byte[] bytes = body == null ? null : json.writeValueAsBytes(body);
        String request = method + " " + path;
        int lastStatus = 0;
        Exception lastFailure = null;
        Answer throttled = null;
        for (int round = 0; round <= retryDelays.size(); round++) {
            if (round > 0) {
                pause(retryDelays.get(round - 1), request);
            }
            throttled = null;
            for (int tried = 0; tried < urls.size(); tried++) {
                int index = current;
                try {
                    HttpResponse<byte[]> response = http.send(build(urls.get(index), method, path, bytes, longPoll),
                            HttpResponse.BodyHandlers.ofByteArray());
                    int status = response.statusCode();
                    if (status == 429) {
                        throttled = new Answer(status, response.body());
                        break;
                    }
                    if (status < 500) {
                        return refuseIfClientError(new Answer(status, response.body()), request);
                    }
                    lastStatus = status;
                    lastFailure = null;
                } catch (IOException e) {
                    lastStatus = 0;
                    lastFailure = e;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ReginaException(request + " interrupted", e);
                }
                current = (index + 1) % urls.size();
            }
        }
        if (throttled != null) {
            return refuseIfClientError(throttled, request);
        }
        String why = lastFailure != null ? lastFailure.toString() : "HTTP " + lastStatus;
        throw new BrokerUnavailableException(request + " failed on " + urls + " after " + (retryDelays.size() + 1)
                + " rounds; last: " + why, lastStatus, lastFailure);
    }

    private HttpRequest build(URI base, String method, String path, byte[] body, Duration longPoll) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path))
                .timeout(requestTimeout.plus(longPoll))
                .header("Accept", "application/json")
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        if (token != null && !token.isEmpty()) {
            builder.header("Authorization", "Bearer " + token);
        }
        return builder.build();
    }

    private Answer refuseIfClientError(Answer answer, String request) {
        if (answer.status() < 400) {
            return answer;
        }
        String error = new String(answer.body(), java.nio.charset.StandardCharsets.UTF_8);
        String code = null;
        try {
            JsonNode tree = json.readTree(answer.body());
            if (tree != null && tree.isObject()) {
                error = tree.path("error").asString(error);
                code = tree.path("code").isString() ? tree.path("code").asString() : null;
            }
        } catch (RuntimeException notJson) {
            // the answer of a proxy or of Spring's default error page: keep its text as the error
        }
        throw new BrokerRefusedException(answer.status(), error, code, request);
    }

    private void pause(Duration delay, String request) {
        try {
            sleeper.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReginaException(request + " interrupted while waiting to retry", e);
        }
    }
}
