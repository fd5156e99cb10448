package io.regina.api;

import io.regina.testing.RunningBroker;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Regina's one-request worker loop, {@code POST /api/v1/ack/pop/...}, against the running broker. */
class AckThenPopIT extends RunningBroker {

    private void push(String queue, String... payloads) {
        for (String p : payloads) {
            post("/api/v1/push", "{\"items\":[{\"queue\":\"" + queue + "\",\"payload\":\"" + p + "\"}]}", 201);
        }
    }

    private static String acks(JsonNode pop) {
        StringBuilder body = new StringBuilder("{\"acknowledgments\":[");
        for (JsonNode m : pop.path("messages")) {
            body.append(body.charAt(body.length() - 1) == '[' ? "" : ",")
                    .append("{\"transactionId\":\"").append(m.path("transactionId").asString())
                    .append("\",\"partitionId\":\"").append(m.path("partitionId").asString())
                    .append("\",\"leaseId\":\"").append(m.path("leaseId").asString())
                    .append("\",\"status\":\"completed\"}");
        }
        return body.append("]}").toString();
    }

    private long entries() {
        return (long) get("/actuator/metrics/regina.raft.entries", 200).path("measurements").path(0).path("value")
                .asDouble();
    }

    /** The entry count once no entry has been written for 300 ms. */
    private long quietEntries() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long last = entries();
        while (System.nanoTime() < deadline) {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            long now = entries();
            if (now == last) {
                return now;
            }
            last = now;
        }
        return last;
    }

    @Test
    void eachRequestAcksTheLastJobAndBringsTheNextInOneRaftEntry() {
        String q = "ackpop-" + UUID.randomUUID().toString().substring(0, 8);
        push(q, "a", "b", "c");
        JsonNode first = post("/api/v1/ack/pop/queue/" + q, "{\"acknowledgments\":[]}", 200);
        assertThat(first.path("acknowledged").size()).isZero();
        assertThat(first.path("pop").path("messages").get(0).path("data").asString()).isEqualTo("a");

        // other test classes share this broker and their timers write entries of their own: of the three
        // requests below, the quietest shows what one request costs
        List<Long> entriesPerRequest = new ArrayList<>();
        long before = quietEntries();
        JsonNode second = post("/api/v1/ack/pop/queue/" + q, acks(first.path("pop")), 200);
        entriesPerRequest.add(entries() - before);
        assertThat(second.path("acknowledged").get(0).path("success").asBoolean()).isTrue();
        assertThat(second.path("acknowledged").get(0).path("transactionId").asString())
                .isEqualTo(first.path("pop").path("messages").get(0).path("transactionId").asString());
        assertThat(second.path("pop").path("messages").get(0).path("data").asString()).isEqualTo("b");

        before = quietEntries();
        JsonNode third = post("/api/v1/ack/pop/queue/" + q + "/partition/Default", acks(second.path("pop")), 200);
        entriesPerRequest.add(entries() - before);
        assertThat(third.path("pop").path("messages").get(0).path("data").asString()).isEqualTo("c");
        before = quietEntries();
        JsonNode last = post("/api/v1/ack/pop/queue/" + q, acks(third.path("pop")), 200);
        entriesPerRequest.add(entries() - before);
        assertThat(Collections.min(entriesPerRequest)).as("the ack and the pop in one entry %s",
                entriesPerRequest).isEqualTo(1);
        assertThat(last.path("acknowledged").get(0).path("success").asBoolean()).isTrue();
        assertThat(last.path("pop").isNull()).as("nothing left: no pop answer").isTrue();

        JsonNode size = get("/api/v1/queues/" + q + "/size", 200);
        assertThat(size.path("size").asLong()).as("every job acked").isZero();
    }

    @Test
    void aLongPollAfterTheAcksWakesOnTheNextPushAndStillReportsTheAcks() throws Exception {
        String q = "ackpop-" + UUID.randomUUID().toString().substring(0, 8);
        push(q, "a");
        JsonNode first = post("/api/v1/ack/pop/queue/" + q, "{\"acknowledgments\":[]}", 200);
        CompletableFuture<JsonNode> waiting = CompletableFuture.supplyAsync(() ->
                post("/api/v1/ack/pop/queue/" + q + "?wait=true&timeout=20000", acks(first.path("pop")), 200));
        Thread.sleep(500);
        assertThat(waiting).isNotDone();
        push(q, "b");
        JsonNode woken = waiting.get(15, TimeUnit.SECONDS);
        assertThat(woken.path("acknowledged").get(0).path("success").asBoolean()).isTrue();
        assertThat(woken.path("pop").path("messages").get(0).path("data").asString()).isEqualTo("b");
    }

    @Test
    void aBadAcknowledgementIsRefusedAndNothingIsPopped() {
        String q = "ackpop-" + UUID.randomUUID().toString().substring(0, 8);
        push(q, "a");
        JsonNode refused = post("/api/v1/ack/pop/queue/" + q, "{\"acknowledgments\":[{\"partitionId\":\"p\"}]}", 400);
        assertThat(refused.path("error").asString()).contains("transactionId");
        assertThat(refused.path("code").asString()).isEqualTo("BAD_REQUEST");
        JsonNode popped = post("/api/v1/ack/pop/queue/" + q, "{\"acknowledgments\":[]}", 200);
        assertThat(popped.path("pop").path("messages").get(0).path("data").asString()).isEqualTo("a");
        JsonNode missing = post("/api/v1/ack/pop/queue/" + q, "{}", 400);
        assertThat(missing.path("error").asString()).contains("'acknowledgments' is required");
    }
}
