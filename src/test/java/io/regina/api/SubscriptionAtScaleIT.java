package io.regina.api;

import io.regina.testing.RunningBroker;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.http.MediaType;
import tools.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 9's flow against the running broker: a consumer group starts with {@code subscriptionMode=new}
 * or a subscription time on a queue of 5,000 partitions holding one message each (or emptied by queue
 * mode), skips that history, and gets the new message of every partition within 5 s, the first of them
 * through a long-poll that was already waiting when they were pushed.
 */
class SubscriptionAtScaleIT extends RunningBroker {
    private static final int PARTITIONS = 5_000;
    /** A wildcard pop may claim up to 1,000 partitions under one lease (the API's bound). */
    private static final String MANY = "&batch=1000&partitions=1000&autoAck=true";

    @ParameterizedTest
    @ValueSource(strings = {"subscriptionMode=new", "subscriptionFrom="})
    void aGroupSkipsTheHistoryOfFiveThousandPartitionsAndGetsEveryNewMessage(String subscription) throws Exception {
        String q = "sub-" + UUID.randomUUID().toString().substring(0, 8);
        pushOneEach(q, "old");
        Thread.sleep(20);
        String start = subscription.endsWith("=") ? subscription + Instant.now() : subscription;
        Thread.sleep(20);
        String group = "consumerGroup=g&" + start;
        assertThat(status("/api/v1/pop/queue/" + q + "?" + group)).as("the history is skipped").isEqualTo(204);

        assertDeliversEveryNewMessageWithinFiveSeconds(q, group);
    }

    @ParameterizedTest
    @ValueSource(strings = {"subscriptionMode=new", "subscriptionFrom="})
    void aGroupWhoseFirstPopFindsEveryPartitionEmptyStartsThereAllTheSame(String subscription) throws Exception {
        String q = "emptied-" + UUID.randomUUID().toString().substring(0, 8);
        pushOneEach(q, "old");
        while (pop(q, "consumerGroup=" + MANY) != null) {
            // queue mode consumes the history, and the partitions drop what it consumed
        }
        Thread.sleep(20);
        String start = subscription.endsWith("=") ? subscription + Instant.now() : subscription;
        Thread.sleep(20);
        String group = "consumerGroup=g&" + start;
        assertThat(status("/api/v1/pop/queue/" + q + "?" + group)).isEqualTo(204);
        Thread.sleep(20);

        assertDeliversEveryNewMessageWithinFiveSeconds(q, group);
    }

    private void assertDeliversEveryNewMessageWithinFiveSeconds(String q, String group) throws Exception {
        CompletableFuture<JsonNode> waiting = CompletableFuture.supplyAsync(
                () -> pop(q, group + "&wait=true&timeout=30000" + MANY));
        Thread.sleep(200);
        long pushedAt = System.nanoTime();
        pushOneEach(q, "new");

        Set<String> delivered = new HashSet<>();
        JsonNode popped = waiting.get();
        while (popped != null) {
            for (JsonNode message : popped.get("messages")) {
                assertThat(delivered.add(message.get("data").asString())).isTrue();
            }
            popped = pop(q, group + MANY);
        }
        double seconds = (System.nanoTime() - pushedAt) / 1e9;
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < PARTITIONS; i++) {
            expected.add("new-" + i);
        }
        assertThat(delivered).isEqualTo(expected);
        assertThat(seconds).as("seconds from the push to the last delivery").isLessThan(5);
    }

    private void pushOneEach(String queue, String payload) {
        StringBuilder body = new StringBuilder("{\"items\":[");
        for (int i = 0; i < PARTITIONS; i++) {
            body.append(i == 0 ? "" : ",").append("{\"queue\":\"").append(queue).append("\",\"partition\":\"p-")
                    .append(i).append("\",\"payload\":\"").append(payload).append('-').append(i).append("\"}");
        }
        http.post().uri("/api/v1/push").contentType(MediaType.APPLICATION_JSON).bodyValue(body.append("]}").toString())
                .exchange().expectStatus().isEqualTo(201);
    }
}
