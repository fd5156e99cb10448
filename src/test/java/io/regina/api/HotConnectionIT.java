package io.regina.api;

import io.regina.testing.RawHttp;
import io.regina.testing.RawHttp.Answer;
import io.regina.testing.RawHttp.Connection;
import io.regina.testing.RunningBroker;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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
            assertThat(c.send(push(queue, "")).status()).isEqualTo(201);
            Answer popped = c.send(RawHttp.get("/api/v1/pop/queue/" + queue + "?batch=1&wait=false", ""));
            assertThat(popped.status()).isEqualTo(200);
            assertThat(popped.headers()).containsEntry("content-type", "application/json");
            JsonNode message = popped.json().path("messages").get(0);
            Answer acked = c.send(RawHttp.post("/api/v1/ack", "{\"transactionId\":\"" + message.path("transactionId").asString()
                    + "\",\"partitionId\":\"" + message.path("partitionId").asString() + "\",\"leaseId\":\""
                    + message.path("leaseId").asString() + "\",\"status\":\"completed\"}", ""));
            assertThat(acked.status()).isEqualTo(200);
            assertThat(acked.json().get(0).path("success").asBoolean()).isTrue();
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInTheirOrderWhicheverHandlerServesThem() throws IOException {
        String queue = queue();
        try (Connection c = connect()) {
            c.write(push(queue, "") + RawHttp.get("/api/v1/queues/" + queue + "/size", "")
                    + RawHttp.get("/api/v1/pop/queue/" + queue + "?batch=1&wait=false", "")
                    + "PUT /api/v1/push HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
                    + RawHttp.get("/api/v1/pop/queue/" + queue + "?batch=1&wait=false", "")
                    + RawHttp.get("/api/v1/queues/" + queue + "/size", ""));
            List<Answer> answers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                answers.add(c.read());
            }
            assertThat(answers).extracting(a -> a.status()).containsExactly(201, 200, 200, 405, 204, 200);
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
            assertThat(c.read().status()).isEqualTo(100);
            c.write(body);
            assertThat(c.read().status()).isEqualTo(201);

            String chunk = Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
            c.write("POST /api/v1/push HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n" + chunk);
            assertThat(c.read().status()).isEqualTo(201);
            assertThat(c.send(RawHttp.get("/api/v1/queues/" + queue + "/size", "")).json().path("size").asLong()).isEqualTo(2);
        }
    }

    @Test
    void aRequestThatAsksToCloseIsAnsweredAndTheConnectionClosed() throws IOException {
        try (Connection c = connect()) {
            Answer answer = c.send(RawHttp.get("/api/v1/pop/queue/" + queue() + "?wait=false", "Connection: close\r\n"));
            assertThat(answer.status()).isEqualTo(204);
            assertThat(answer.headers()).containsEntry("connection", "close");
            assertThat(c.readByte()).as("closed by the broker").isEqualTo(-1);
        }
    }

    @Test
    void aClientThatLeavesALongPollTakesNothingWithIt() throws Exception {
        String queue = queue();
        try (Connection gone = connect()) {
            gone.write(RawHttp.get("/api/v1/pop/queue/" + queue + "?batch=1&wait=true&timeout=30000", ""));
            Thread.sleep(500);
        }
        Thread.sleep(500);
        try (Connection c = connect()) {
            assertThat(c.send(push(queue, "")).status()).isEqualTo(201);
            Answer popped = c.send(RawHttp.get("/api/v1/pop/queue/" + queue + "?batch=1&wait=false", ""));
            assertThat(popped.status()).as("the message was not leased to the poll that left").isEqualTo(200);
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
        return RawHttp.post("/api/v1/push", items(queue), headers);
    }

    private Connection connect() throws IOException {
        return RawHttp.connect(port);
    }
}
