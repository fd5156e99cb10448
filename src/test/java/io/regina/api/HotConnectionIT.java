package io.regina.api;

import io.regina.testing.RunningBroker;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hot endpoints served from Netty's pipeline, over raw HTTP/1.1 connections to the running broker: keep-alive,
 * pipelined requests whichever handler serves them, the request shapes left to Spring, closing, and a client
 * that leaves a long-poll.
 */
class HotConnectionIT extends RunningBroker {

    @Test
    void oneConnectionCarriesPushPopAndAckInTurn() throws IOException {
        String queue = queue();
        try (Connection c = connect()) {
            assertThat(c.send(push(queue, "")).status).isEqualTo(201);
            Answer popped = c.send(get("/api/v1/pop/queue/" + queue + "?batch=1&wait=false", ""));
            assertThat(popped.status).isEqualTo(200);
            assertThat(popped.headers).containsEntry("content-type", "application/json");
            JsonNode message = popped.json().path("messages").get(0);
            Answer acked = c.send(post("/api/v1/ack", "{\"transactionId\":\"" + message.path("transactionId").asString()
                    + "\",\"partitionId\":\"" + message.path("partitionId").asString() + "\",\"leaseId\":\""
                    + message.path("leaseId").asString() + "\",\"status\":\"completed\"}", ""));
            assertThat(acked.status).isEqualTo(200);
            assertThat(acked.json().get(0).path("success").asBoolean()).isTrue();
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInTheirOrderWhicheverHandlerServesThem() throws IOException {
        String queue = queue();
        try (Connection c = connect()) {
            c.write(push(queue, "") + get("/api/v1/queues/" + queue + "/size", "")
                    + get("/api/v1/pop/queue/" + queue + "?batch=1&wait=false", "")
                    + "PUT /api/v1/push HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
                    + get("/api/v1/pop/queue/" + queue + "?batch=1&wait=false", "")
                    + get("/api/v1/queues/" + queue + "/size", ""));
            List<Answer> answers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                answers.add(c.read());
            }
            assertThat(answers).extracting(a -> a.status).containsExactly(201, 200, 200, 405, 204, 200);
            assertThat(answers.get(1).json().path("size").asLong()).isEqualTo(1);
            assertThat(answers.get(2).json().path("messages")).hasSize(1);
            assertThat(answers.get(5).json().path("queue").asString()).isEqualTo(queue);
        }
    }

    @Test
    void expectContinueAndChunkedBodiesAreServedBySpring() throws IOException {
        String queue = queue();
        String body = items(queue);
        try (Connection c = connect()) {
            c.write("POST /api/v1/push HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n");
            assertThat(c.read().status).isEqualTo(100);
            c.write(body);
            assertThat(c.read().status).isEqualTo(201);

            String chunk = Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
            c.write("POST /api/v1/push HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n" + chunk);
            assertThat(c.read().status).isEqualTo(201);
            assertThat(c.send(get("/api/v1/queues/" + queue + "/size", "")).json().path("size").asLong()).isEqualTo(2);
        }
    }

    @Test
    void aRequestThatAsksToCloseIsAnsweredAndTheConnectionClosed() throws IOException {
        try (Connection c = connect()) {
            Answer answer = c.send(get("/api/v1/pop/queue/" + queue() + "?wait=false", "Connection: close\r\n"));
            assertThat(answer.status).isEqualTo(204);
            assertThat(answer.headers).containsEntry("connection", "close");
            assertThat(c.in.read()).as("closed by the broker").isEqualTo(-1);
        }
    }

    @Test
    void aClientThatLeavesALongPollTakesNothingWithIt() throws Exception {
        String queue = queue();
        try (Connection gone = connect()) {
            gone.write(get("/api/v1/pop/queue/" + queue + "?batch=1&wait=true&timeout=30000", ""));
            Thread.sleep(500);
        }
        Thread.sleep(500);
        try (Connection c = connect()) {
            assertThat(c.send(push(queue, "")).status).isEqualTo(201);
            Answer popped = c.send(get("/api/v1/pop/queue/" + queue + "?batch=1&wait=false", ""));
            assertThat(popped.status).as("the message was not leased to the poll that left").isEqualTo(200);
            assertThat(popped.json().path("messages")).hasSize(1);
        }
    }

    private static String queue() {
        return "hot-conn-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String items(String queue) {
        return "{\"items\":[{\"queue\":\"" + queue + "\",\"payload\":{\"n\":1}}]}";
    }

    private static String push(String queue, String headers) {
        return post("/api/v1/push", items(queue), headers);
    }

    private static String post(String path, String body, String headers) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + headers
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    private static String get(String path, String headers) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n";
    }

    private Connection connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(15_000);
        return new Connection(socket);
    }

    private record Answer(int status, Map<String, String> headers, byte[] body) {
        JsonNode json() {
            return JSON.readTree(body);
        }
    }

    /** One keep-alive connection, written and read by hand. */
    private static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.out = socket.getOutputStream();
            this.in = socket.getInputStream();
        }

        Answer send(String request) throws IOException {
            write(request);
            return read();
        }

        void write(String request) throws IOException {
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        Answer read() throws IOException {
            String statusLine = line();
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            Map<String, String> headers = new HashMap<>();
            for (String header = line(); !header.isEmpty(); header = line()) {
                int colon = header.indexOf(':');
                headers.put(header.substring(0, colon).trim().toLowerCase(), header.substring(colon + 1).trim());
            }
            byte[] body;
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                for (int size = Integer.parseInt(line(), 16); size > 0; size = Integer.parseInt(line(), 16)) {
                    all.write(in.readNBytes(size));
                    line();
                }
                line();
                body = all.toByteArray();
            } else {
                body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
            }
            return new Answer(status, headers, body);
        }

        private String line() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("connection closed mid-answer");
                }
                if (b != '\r') {
                    line.write(b);
                }
            }
            return line.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
