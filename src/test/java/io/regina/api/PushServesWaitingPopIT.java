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

/** A push to a queue with long-polls parked on this node carries their pops in its own Raft entry. */
class PushServesWaitingPopIT extends RunningBroker {

    private static String queue() {
        return "served-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private void push(String queue, String payload) {
        post("/api/v1/push", "{\"items\":[{\"queue\":\"" + queue + "\",\"payload\":\"" + payload + "\"}]}", 201);
    }

    private CompletableFuture<JsonNode> parkedPop(String queue) throws InterruptedException {
        CompletableFuture<JsonNode> waiting = CompletableFuture.supplyAsync(() ->
                pop(queue, "batch=1&wait=true&timeout=20000"));
        Thread.sleep(400); // it looked, found nothing and parked
        assertThat(waiting).isNotDone();
        return waiting;
    }

    private long entries() {
        return (long) get("/actuator/metrics/regina.raft.entries", 200).path("measurements").path(0).path("value")
                .asDouble();
    }

    /** The entry count once no entry has been written for 300 ms (other test classes' timers write some). */
    private long quietEntries() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long last = entries();
        while (System.nanoTime() < deadline) {
            Thread.sleep(300);
            long now = entries();
            if (now == last) {
                return now;
            }
            last = now;
        }
        return last;
    }

    private static String ack(JsonNode message) {
        return "{\"transactionId\":\"" + message.path("transactionId").asString() + "\",\"partitionId\":\""
                + message.path("partitionId").asString() + "\",\"leaseId\":\"" + message.path("leaseId").asString()
                + "\",\"status\":\"completed\"}";
    }

    @Test
    void aParkedLongPollGetsThePushedMessageFromThePushsOwnEntry() throws Exception {
        String q = queue();
        List<Long> entriesPerJob = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            CompletableFuture<JsonNode> waiting = parkedPop(q);
            long before = quietEntries();
            push(q, "job-" + i);
            JsonNode popped = waiting.get(15, TimeUnit.SECONDS);
            entriesPerJob.add(entries() - before);

            JsonNode message = popped.path("messages").get(0);
            assertThat(message.path("data").asString()).isEqualTo("job-" + i);
            JsonNode acked = post("/api/v1/ack", ack(message), 200);
            assertThat(acked.toString()).as("its lease is the poll's").contains("\"success\":true");
        }
        assertThat(Collections.min(entriesPerJob)).as("push and pop in one entry, in the quietest of three")
                .isEqualTo(1);
        assertThat(get("/api/v1/queues/" + q + "/size", 200).toString()).contains("\"size\":0");
    }

    @Test
    void oneMessageServesOnePollAndTheNextServesTheNext() throws Exception {
        String q = queue();
        CompletableFuture<JsonNode> first = parkedPop(q);
        CompletableFuture<JsonNode> second = parkedPop(q);

        push(q, "x");
        JsonNode x = CompletableFuture.anyOf(first, second).thenApply(JsonNode.class::cast).get(15, TimeUnit.SECONDS);
        assertThat(x.path("messages").get(0).path("data").asString()).isEqualTo("x");
        CompletableFuture<JsonNode> other = first.isDone() ? second : first;
        Thread.sleep(300);
        assertThat(other).as("one message, one delivery").isNotDone();

        post("/api/v1/ack", ack(x.path("messages").get(0)), 200); // the partition's lease ends
        push(q, "y");
        assertThat(other.get(15, TimeUnit.SECONDS).path("messages").get(0).path("data").asString()).isEqualTo("y");
    }

    @Test
    void aPollPastItsTimeoutIsNotServedAndTheMessageWaitsForTheNextPop() {
        String q = queue();
        assertThat(pop(q, "batch=1&wait=true&timeout=300")).as("nothing came: 204").isNull();

        push(q, "late");

        JsonNode popped = pop(q, "batch=1");
        assertThat(popped).as("not leased to the poll that left").isNotNull();
        assertThat(popped.path("messages").get(0).path("data").asString()).isEqualTo("late");
    }
}
