package io.regina.api;

import io.regina.testing.Eventually;
import io.regina.testing.RawHttp;
import io.regina.testing.RawHttp.Answer;
import io.regina.testing.RawHttp.Connection;
import io.regina.testing.RunningBroker;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker popping and acking in a loop on one keep-alive connection gets its next next pop in its ack's
 * entry ({@link NextPops}), and nobody else loses a message for it: each message is delivered once and counted
 * one attempt, and what a next pop holds goes back, unstarted, when its hold ends, when the connection
 * closes, or when the worker's next pop asks for something else. A "quick" return is a minute here and the hold
 * three seconds, so that a slow test machine sees the same loop a worker makes in microseconds.
 */
@TestPropertySource(properties = {"regina.next-pop.quick-return-ms=60000", "regina.next-pop.hold-ms=3000"})
class NextPopsIT extends RunningBroker {
    private static final long HOLD_MS = 3000;

    @Test
    void aSteadyWorkerGetsEveryMessageOnceInOrderAndItsPopsFromTheAcksBeforeThem() throws IOException {
        String queue = queue();
        pushNumbered(queue, 10);
        double before = taken();
        List<Integer> seen = new ArrayList<>();
        try (Connection worker = RawHttp.connect(port)) {
            for (int i = 0; i < 10; i++) {
                JsonNode message = popOne(worker, queue, "batch=1&wait=true&timeout=5000");
                assertThat(message.path("attempts").asInt()).isEqualTo(1);
                seen.add(message.path("data").path("n").asInt());
                ack(worker, message);
            }
            assertThat(worker.send(RawHttp.get("/api/v1/pop/queue/" + queue + "?batch=1&wait=false", "")).status())
                    .isEqualTo(204);
        }
        assertThat(seen).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        // two plain cycles make the loop steady; then the acks of messages 3 to 9 carry the pops of 4 to 10
        assertThat(taken() - before).isEqualTo(7);
        assertThat(get("/api/v1/queues/" + queue + "/size", 200).path("size").asLong()).isZero();
    }

    @Test
    void aSteadyWorkerTakingTwoAtATimeGetsItsPopsFromItsBatchAcks() throws IOException {
        String queue = queue();
        pushNumbered(queue, 10);
        double before = taken();
        List<Integer> seen = new ArrayList<>();
        try (Connection worker = RawHttp.connect(port)) {
            for (int i = 0; i < 5; i++) {
                Answer popped = worker.send(RawHttp.get("/api/v1/pop/queue/" + queue
                        + "?batch=2&wait=true&timeout=5000", ""));
                assertThat(popped.status()).isEqualTo(200);
                JsonNode messages = popped.json().path("messages");
                assertThat(messages).hasSize(2);
                List<String> acks = new ArrayList<>();
                for (JsonNode message : messages) {
                    assertThat(message.path("attempts").asInt()).isEqualTo(1);
                    seen.add(message.path("data").path("n").asInt());
                    acks.add(ack(message, "completed"));
                }
                Answer acked = worker.send(RawHttp.post("/api/v1/ack/batch",
                        "{\"acknowledgments\":[" + String.join(",", acks) + "]}", ""));
                assertThat(acked.status()).isEqualTo(200);
                assertThat(acked.json()).allSatisfy(item -> assertThat(item.path("success").asBoolean()).isTrue());
            }
        }
        assertThat(seen).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        // the third batch ack settles both messages of its pop and carries the fourth pop, the fourth the fifth
        assertThat(taken() - before).isEqualTo(2);
        assertThat(get("/api/v1/queues/" + queue + "/size", 200).path("size").asLong()).isZero();
    }

    @Test
    void whatANextPopHoldsGoesBackUnstartedWhenNoPopComesForIt() throws IOException {
        String queue = queue();
        pushNumbered(queue, 5);
        try (Connection worker = RawHttp.connect(port)) {
            steadyCycles(worker, queue, 3);
            JsonNode size = get("/api/v1/queues/" + queue + "/size", 200);
            assertThat(size.path("reserved").asLong()).as("message 3, in the next pop").isEqualTo(1);
            assertThat(size.path("pending").asLong()).isEqualTo(1);

            Eventually.await(Duration.ofMillis(HOLD_MS + 5000), "the held message handed back",
                    () -> get("/api/v1/queues/" + queue + "/size", 200).path("reserved").asLong(), reserved -> reserved == 0);
        }
        try (Connection other = RawHttp.connect(port)) {
            JsonNode popped = other.send(RawHttp.get("/api/v1/pop/queue/" + queue + "?batch=5&wait=false", "")).json();
            assertThat(popped.path("messages")).extracting(m -> m.path("data").path("n").asInt()).containsExactly(3, 4);
            assertThat(popped.path("messages")).extracting(m -> m.path("attempts").asInt()).containsExactly(1, 1);
        }
    }

    @Test
    void aWorkerThatLeavesHandsItsNextPopBackAtOnce() throws IOException {
        String queue = queue();
        pushNumbered(queue, 4);
        try (Connection worker = RawHttp.connect(port)) {
            steadyCycles(worker, queue, 3);
        }
        long start = System.nanoTime();
        try (Connection other = RawHttp.connect(port)) {
            JsonNode message = popOne(other, queue, "batch=1&wait=true&timeout=10000");
            assertThat(message.path("data").path("n").asInt()).isEqualTo(3);
            assertThat(message.path("attempts").asInt()).isEqualTo(1);
        }
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms until the message was back")
                .isLessThan(HOLD_MS - 500);
    }

    @Test
    void aNextPopThatAsksForSomethingElseGetsTheMessagesHeldForIt() throws IOException {
        String queue = queue();
        pushNumbered(queue, 5);
        try (Connection worker = RawHttp.connect(port)) {
            steadyCycles(worker, queue, 3);
            long start = System.nanoTime();
            Answer popped = worker.send(RawHttp.get("/api/v1/pop/queue/" + queue + "?batch=2&wait=true&timeout=10000", ""));
            assertThat(popped.status()).isEqualTo(200);
            assertThat(popped.json().path("messages")).extracting(m -> m.path("data").path("n").asInt())
                    .containsExactly(3, 4);
            assertThat(popped.json().path("messages")).extracting(m -> m.path("attempts").asInt())
                    .containsExactly(1, 1);
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(HOLD_MS - 500);
        }
    }

    @Test
    void aWorkerHandingItsJobBackGetsNoNextPop() throws IOException {
        String queue = queue();
        pushNumbered(queue, 5);
        try (Connection worker = RawHttp.connect(port)) {
            steadyCycles(worker, queue, 2);
            JsonNode message = popOne(worker, queue, "batch=1&wait=true&timeout=5000");
            assertThat(worker.send(RawHttp.post("/api/v1/ack", ack(message, "retry"), "")).status()).isEqualTo(200);
            JsonNode size = get("/api/v1/queues/" + queue + "/size", 200);
            assertThat(size.path("reserved").asLong()).isZero();
            assertThat(size.path("pending").asLong()).isEqualTo(3);
        }
    }

    /** Pops and acks messages 0 to {@code cycles - 1}, one at a time, on {@code worker}. */
    private static void steadyCycles(Connection worker, String queue, int cycles) throws IOException {
        for (int i = 0; i < cycles; i++) {
            JsonNode message = popOne(worker, queue, "batch=1&wait=true&timeout=5000");
            assertThat(message.path("data").path("n").asInt()).isEqualTo(i);
            ack(worker, message);
        }
    }

    private static JsonNode popOne(Connection connection, String queue, String query) throws IOException {
        Answer popped = connection.send(RawHttp.get("/api/v1/pop/queue/" + queue + "?" + query, ""));
        assertThat(popped.status()).isEqualTo(200);
        assertThat(popped.json().path("messages")).hasSize(1);
        return popped.json().path("messages").get(0);
    }

    private static void ack(Connection worker, JsonNode message) throws IOException {
        Answer acked = worker.send(RawHttp.post("/api/v1/ack", ack(message, "completed"), ""));
        assertThat(acked.status()).isEqualTo(200);
        assertThat(acked.json().get(0).path("success").asBoolean()).isTrue();
    }

    private static String ack(JsonNode message, String status) {
        return "{\"transactionId\":\"" + message.path("transactionId").asString() + "\",\"partitionId\":\""
                + message.path("partitionId").asString() + "\",\"leaseId\":\"" + message.path("leaseId").asString()
                + "\",\"status\":\"" + status + "\"}";
    }

    private void pushNumbered(String queue, int count) {
        StringBuilder items = new StringBuilder();
        for (int n = 0; n < count; n++) {
            items.append(n == 0 ? "" : ",").append("{\"queue\":\"").append(queue).append("\",\"payload\":{\"n\":")
                    .append(n).append("}}");
        }
        post("/api/v1/push", "{\"items\":[" + items + "]}", 201);
    }

    private double taken() {
        JsonNode metric = get("/actuator/metrics/regina.pops.next?tag=outcome:taken", 200);
        return metric.path("measurements").get(0).path("value").asDouble();
    }

    private static String queue() {
        return "next-pop-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
