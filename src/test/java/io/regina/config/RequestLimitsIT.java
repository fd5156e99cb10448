package io.regina.config;

import io.regina.testing.TestNode;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests past Netty's request-line and header limits, sent on a raw socket as a client would: each is
 * answered with a status and the API's JSON error body, never a reset connection.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RequestLimitsIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void node(DynamicPropertyRegistry registry) {
        TestNode.register(registry);
    }

    @Test
    void anOverLongRequestLineIs414WithABody() throws IOException {
        String answer = exchange("POST /api/v1/lease/" + "x".repeat(70_000) + "/extend HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
        assertThat(answer).startsWith("HTTP/1.1 414 ");
        JsonNode body = body(answer);
        assertThat(body.path("code").asString()).isEqualTo("URI_TOO_LONG");
        assertThat(body.path("error").asString()).contains("server.netty.max-initial-line-length");
    }

    @Test
    void anOverLargeHeaderIs431WithABody() throws IOException {
        String answer = exchange("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "y".repeat(70_000) + "\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 431 ");
        JsonNode body = body(answer);
        assertThat(body.path("code").asString()).isEqualTo("HEADERS_TOO_LARGE");
        assertThat(body.path("error").asString()).contains("server.max-http-request-header-size");
    }

    @Test
    void theConnectionStillServesRequestsWithinTheLimits() throws IOException {
        String answer = exchange("GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertThat(answer).startsWith("HTTP/1.1 200 ");
    }

    @Test
    void anOverLongRequestAfterAnAnsweredOneOnTheSameConnectionIs414WithABody() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            assertThat(oneAnswer(in)).startsWith("HTTP/1.1 200 ");
            out.write(("GET /api/v1/pop/queue/" + "q".repeat(70_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 414 ");
            assertThat(body(answer).path("code").asString()).isEqualTo("URI_TOO_LONG");
        }
    }

    /** One keep-alive answer: its head and a Content-Length body. */
    private static String oneAnswer(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            assertThat(c).as("the connection stays open").isNotNegative();
            head.append((char) c);
        }
        Matcher length = Pattern.compile("(?i)content-length: *(\\d+)").matcher(head);
        assertThat(length.find()).isTrue();
        return head + new String(in.readNBytes(Integer.parseInt(length.group(1))), StandardCharsets.UTF_8);
    }

    private static JsonNode body(String answer) {
        assertThat(answer).containsIgnoringCase("content-type: application/json");
        return JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
    }

    /** Writes the whole request, then reads the answer until the server closes: a reset fails the test. */
    private String exchange(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                read.write(buffer, 0, n);
            }
            return read.toString(StandardCharsets.UTF_8);
        }
    }
}
