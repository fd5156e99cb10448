package io.regina.api;

import io.regina.testing.Eventually;
import io.regina.testing.RunningBroker;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a worker supervisor needs of the broker, over HTTP: a pop's own lease length, the fence that refuses
 * a stale hand-back, one group's depth, and the read-only watch.
 */
class WorkerLeasesIT extends RunningBroker {

    private static String queue() {
        return "leases-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private void push(String queue, String... payloads) {
        for (String p : payloads) {
            post("/api/v1/push", "{\"items\":[{\"queue\":\"" + queue + "\",\"payload\":\"" + p + "\"}]}", 201);
        }
    }

    private static String ack(JsonNode message, String status) {
        return "{\"transactionId\":\"" + message.path("transactionId").asString() + "\",\"partitionId\":\""
                + message.path("partitionId").asString() + "\",\"leaseId\":\"" + message.path("leaseId").asString()
                + "\",\"status\":\"" + status + "\"}";
    }

    @Test
    void aPopsLeaseSecondsReplaceTheQueuesLeaseTime() {
        String q = queue();
        post("/api/v1/configure", "{\"queue\":\"" + q + "\",\"options\":{\"leaseTime\":300}}", 200);
        push(q, "a");
        JsonNode first = get("/api/v1/pop/queue/" + q + "?leaseSeconds=1", 200).path("messages").get(0);

        Eventually.await(Duration.ofSeconds(10), "the 1 s lease to expire",
                () -> get("/api/v1/queues/" + q + "/depth", 200).path("ready").asLong() == 1);
        JsonNode again = get("/api/v1/pop/queue/" + q, 200);

        assertThat(again.path("messages").get(0).path("transactionId").asString())
                .isEqualTo(first.path("transactionId").asString());
        assertThat(again.path("messages").get(0).path("attempts").asInt()).isEqualTo(2);
    }

    @Test
    void leaseSecondsMustBeAWholeNumberOfSecondsUpToADay() {
        String q = queue();
        push(q, "a");
        for (String bad : new String[] {"0", "-5", "86401", "1.5", "ten"}) {
            JsonNode refused = get("/api/v1/pop/queue/" + q + "?leaseSeconds=" + bad, 400);
            assertThat(refused.path("code").asString()).isEqualTo("BAD_REQUEST");
            assertThat(refused.path("error").asString()).contains("'leaseSeconds'");
        }
        JsonNode viaAckPop = post("/api/v1/ack/pop/queue/" + q + "?leaseSeconds=0", "{\"acknowledgments\":[]}", 400);
        assertThat(viaAckPop.path("error").asString()).isEqualTo("'leaseSeconds' must be between 1 and 86400, got 0");
        assertThat(get("/api/v1/pop/queue/" + q + "?leaseSeconds=86400", 200).path("messages").size()).isEqualTo(1);
    }

    @Test
    void aStaleHandBackIsRefusedAndTheNewDeliveryStaysWithItsWorker() {
        String q = queue();
        push(q, "job");
        JsonNode a = post("/api/v1/ack/pop/queue/" + q + "?leaseSeconds=1", "{\"acknowledgments\":[]}", 200)
                .path("pop").path("messages").get(0);
        JsonNode b = Eventually.await(Duration.ofSeconds(10), "worker B to take the job after A's lease expired",
                () -> post("/api/v1/ack/pop/queue/" + q, "{\"acknowledgments\":[]}", 200).path("pop"),
                pop -> !pop.isNull()).path("messages").get(0);
        assertThat(b.path("leaseId").asString()).isNotEqualTo(a.path("leaseId").asString());

        JsonNode fenced = post("/api/v1/ack/pop/queue/" + q, "{\"acknowledgments\":[" + ack(a, "completed") + "]}",
                409);
        assertThat(fenced.path("code").asString()).isEqualTo("LEASE_NOT_HELD");
        assertThat(fenced.path("error").asString()).contains(a.path("leaseId").asString())
                .contains("nothing in this request was applied");
        JsonNode plain = post("/api/v1/ack", ack(a, "retry"), 200);
        assertThat(plain.path(0).path("success").asBoolean()).isFalse();
        assertThat(plain.path(0).path("error").asString()).as("Queen's per-item answer, unchanged")
                .isEqualTo("Invalid or expired lease");
        JsonNode transaction = post("/api/v1/transaction", "{\"operations\":[{\"type\":\"ack\","
                + ack(a, "completed").substring(1) + "],\"requiredLeases\":[\"" + a.path("leaseId").asString() + "\"]}",
                200);
        assertThat(transaction.path("success").asBoolean()).isFalse();
        assertThat(transaction.path("error").asString()).contains("is not active");

        JsonNode depth = get("/api/v1/queues/" + q + "/depth", 200);
        assertThat(depth.path("leased").asLong()).as("B still holds the job").isEqualTo(1);
        JsonNode done = post("/api/v1/ack/pop/queue/" + q, "{\"acknowledgments\":[" + ack(b, "completed") + "]}", 200);
        assertThat(done.path("acknowledged").path(0).path("success").asBoolean()).isTrue();
        assertThat(get("/api/v1/queues/" + q + "/depth", 200).path("total").asLong()).isZero();
    }

    @Test
    void oneGroupsDepthCountsWhatItHasLeftAndEstimatesTheDrain() throws Exception {
        String q = queue();
        push(q, "a", "b", "c");
        post("/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"partition\":\"other\",\"payload\":\"x\"}]}", 201);
        post("/api/v1/push", "{\"items\":[{\"queue\":\"" + q + "\",\"payload\":\"later\",\"delayMs\":600000}]}", 201);
        JsonNode popped = get("/api/v1/pop/queue/" + q + "/partition/other?consumerGroup=workers", 200);

        JsonNode first = get("/api/v1/queues/" + q + "/depth?consumerGroup=workers", 200);
        assertThat(first.path("queue").asString()).isEqualTo(q);
        assertThat(first.path("consumerGroup").asString()).isEqualTo("workers");
        assertThat(first.path("ready").asLong()).isEqualTo(3);
        assertThat(first.path("leased").asLong()).isEqualTo(1);
        assertThat(first.path("delayed").asLong()).isEqualTo(1);
        assertThat(first.path("total").asLong()).isEqualTo(5);
        assertThat(first.path("settledPerSecond").isNull()).as("one reading: no rate yet").isTrue();
        assertThat(first.path("drainSeconds").isNull()).isTrue();
        assertThat(get("/api/v1/queues/" + q + "/depth", 200).path("ready").asLong())
                .as("queue mode has read nothing yet").isEqualTo(4);

        post("/api/v1/ack", ack(popped.path("messages").get(0), "completed").replace("}",
                ",\"consumerGroup\":\"workers\"}"), 200);
        Thread.sleep(1_200);
        JsonNode later = get("/api/v1/queues/" + q + "/depth?consumerGroup=workers", 200);
        assertThat(later.path("leased").asLong()).isZero();
        assertThat(later.path("settledPerSecond").asDouble()).isGreaterThan(0);
        assertThat(later.path("drainSeconds").asLong()).isGreaterThanOrEqualTo(4);

        JsonNode unknown = get("/api/v1/queues/no-such-" + q + "/depth", 404);
        assertThat(unknown.path("code").asString()).isEqualTo("QUEUE_NOT_FOUND");
    }

    @Test
    void aWatchAnswersWhenWorkArrivesAndLeasesNothing() throws Exception {
        String q = queue();
        JsonNode idle = get("/api/v1/watch/queue/" + q + "?timeout=200", 200);
        assertThat(idle.path("deliverable").asBoolean()).as("no work before the timeout").isFalse();

        CompletableFuture<JsonNode> watching = CompletableFuture.supplyAsync(
                () -> get("/api/v1/watch/queue/" + q + "?consumerGroup=workers&timeout=20000", 200));
        Thread.sleep(500);
        assertThat(watching).isNotDone();
        push(q, "burst");
        JsonNode woken = watching.get(15, TimeUnit.SECONDS);
        assertThat(woken.path("deliverable").asBoolean()).isTrue();
        assertThat(woken.path("consumerGroup").asString()).isEqualTo("workers");
        assertThat(woken.path("ready").asLong()).isEqualTo(1);

        JsonNode popped = get("/api/v1/pop/queue/" + q + "?consumerGroup=workers", 200);
        assertThat(popped.path("messages").get(0).path("attempts").asInt()).as("the watch leased nothing")
                .isEqualTo(1);
        JsonNode held = get("/api/v1/watch/queue/" + q + "?consumerGroup=workers&timeout=300", 200);
        assertThat(held.path("deliverable").asBoolean()).as("the only partition is leased").isFalse();
        assertThat(held.path("leased").asLong()).isEqualTo(1);
        assertThat(get("/api/v1/watch/queue/" + q + "?partition=nope,Default&timeout=0", 200)
                .path("deliverable").asBoolean()).as("queue mode has not read it").isTrue();
        assertThat(get("/api/v1/watch/queue/" + q + "?partition=nope&timeout=0", 200)
                .path("deliverable").asBoolean()).isFalse();
        assertThat(get("/api/v1/watch/queue/" + q + "?timeout=-1", 400).path("code").asString())
                .isEqualTo("BAD_REQUEST");
    }
}
