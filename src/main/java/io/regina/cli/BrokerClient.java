package io.regina.cli;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The broker's REST API over the JDK HTTP client. Every failure becomes a {@link CliException} with the
 * exit code of {@link ReginaCli}: a network error is {@link ReginaCli#UNREACHABLE}, an HTTP 400 a usage
 * error, any other non-2xx answer {@link ReginaCli#FAILED} with the broker's {@code error} text.
 */
final class BrokerClient {
    static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(120);

    private final String baseUrl;
    private final String token;
    private final HttpClient http;

    /** {@code token}: sent as {@code Authorization: Bearer} when not empty. */
    BrokerClient(String baseUrl, String token) {
        String url = baseUrl.trim();
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new CliException(ReginaCli.USAGE, "Invalid --url '" + baseUrl + "': " + e.getMessage());
        }
        if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())
                || uri.getHost() == null) {
            throw new CliException(ReginaCli.USAGE, "Invalid --url '" + baseUrl
                    + "': expected http://host:port, e.g. " + ReginaCli.DEFAULT_URL);
        }
        this.baseUrl = url;
        this.token = token;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT)
                .build();
    }

    String baseUrl() {
        return baseUrl;
    }

    /** One HTTP answer: its status and raw body text (empty for 204). */
    record Answer(int status, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (JacksonException e) {
                throw new CliException(ReginaCli.FAILED, "The broker answered HTTP " + status
                        + " with a body that is not JSON: " + abbreviate(body));
            }
        }
    }

    Answer get(String path, Map<String, String> query) {
        return send("GET", path + queryString(query), null);
    }

    Answer post(String path, JsonNode body) {
        return send("POST", path, body);
    }

    Answer delete(String path) {
        return send("DELETE", path, null);
    }

    /** Encodes one path segment (a queue name or an id). */
    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static Map<String, String> query() {
        return new LinkedHashMap<>();
    }

    private static String queryString(Map<String, String> query) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, String> entry : query.entrySet()) {
            if (entry.getValue() == null) {
                continue;
            }
            text.append(text.length() == 0 ? '?' : '&').append(entry.getKey()).append('=')
                    .append(URLEncoder.encode(entry.getValue(), StandardCharsets.UTF_8));
        }
        return text.toString();
    }

    private Answer send(String method, String path, JsonNode body) {
        HttpRequest request;
        try {
            HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(REQUEST_TIMEOUT)
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
            if (!token.isEmpty()) {
                builder.header("Authorization", "Bearer " + token);
            }
            request = builder.build();
        } catch (IllegalArgumentException e) {
            throw new CliException(ReginaCli.USAGE, "Invalid request URL " + baseUrl + path + ": " + e.getMessage());
        }
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new CliException(ReginaCli.UNREACHABLE, "Cannot reach the broker at " + baseUrl + ": "
                    + describe(e) + " (is it running? set --url or REGINA_URL)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ReginaCli.FAILED, "Interrupted while waiting for the broker", e);
        }
        Answer answer = new Answer(response.statusCode(), response.body() == null ? "" : response.body());
        if (answer.status() >= 200 && answer.status() < 300) {
            return answer;
        }
        String error = errorText(answer);
        if (answer.status() == 400) {
            throw new CliException(ReginaCli.USAGE, "The broker refused the request: " + error);
        }
        throw new CliException(ReginaCli.FAILED, error);
    }

    private static String errorText(Answer answer) {
        try {
            JsonNode json = JSON.readTree(answer.body());
            if (json != null && json.isObject() && json.hasNonNull("error")) {
                return json.get("error").asString();
            }
        } catch (JacksonException e) {
            // not JSON: report the status and the start of the body
        }
        return "HTTP " + answer.status() + (answer.body().isBlank() ? "" : ": " + abbreviate(answer.body()));
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        if (message == null || message.isBlank()) {
            Throwable cause = e.getCause();
            message = cause != null && cause.getMessage() != null ? cause.getMessage() : "";
        }
        if (message.isBlank() && e instanceof ConnectException) {
            return "connection refused";
        }
        return message.isBlank() ? e.getClass().getSimpleName() : message;
    }

    private static String abbreviate(String text) {
        String line = text.strip();
        return line.length() <= 200 ? line : line.substring(0, 200) + "…";
    }
}
