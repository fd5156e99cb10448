package io.regina.client;

import io.regina.testing.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The client's request rules (retries, failover, 4xx, 429) and wire shapes, against {@link HttpStub}. */
class ReginaClientTest {
    private static final String ACKED = "[{\"index\":0,\"transactionId\":\"t\",\"success\":true,\"error\":null,"
            + "\"queueName\":\"q\",\"partitionName\":\"Default\",\"leaseReleased\":true,\"dlq\":false}]";

    private final HttpStub first = new HttpStub();
    private final HttpStub second = new HttpStub();
    private final List<Duration> slept = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        first.close();
        second.close();
    }

    private ReginaClient client(String... urls) {
        return ReginaClient.builder().urls(urls).token("secret").sleeper(slept::add).build();
    }

    private static Message message() {
        return new Message("m", "t", null, null, null, null, "p", "Default", "lease-1", "__QUEUE_MODE__", 1);
    }

    @Test
    void a5xxIsTriedThreeTimesWithOneThenTwoSecondsBetween() {
        first.reply(503, "{\"error\":\"no leader\",\"code\":\"UNAVAILABLE\"}");

        assertThatThrownBy(() -> client(first.url()).ack(Ack.completed(message())))
                .isInstanceOfSatisfying(BrokerUnavailableException.class,
                        e -> assertThat(e.lastStatus()).isEqualTo(503));
        assertThat(first.requests).hasSize(3);
        assertThat(slept).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    @Test
    void aRetryThatSucceedsAnswersNormally() {
        first.reply(500, "{\"error\":\"boom\"}").reply(200, ACKED);

        Acked acked = client(first.url()).ack(Ack.completed(message()));

        assertThat(acked.success()).isTrue();
        assertThat(first.requests).hasSize(2);
        assertThat(slept).containsExactly(Duration.ofSeconds(1));
    }

    @Test
    void aNetworkErrorMovesToTheNextUrlAtOnceAndStaysThere() {
        second.reply(200, ACKED);
        ReginaClient client = client("http://127.0.0.1:" + FreePorts.next(), second.url());

        client.ack(Ack.completed(message()));
        client.ack(Ack.completed(message()));

        assertThat(slept).as("the second URL answered within the first round").isEmpty();
        assertThat(second.requests).hasSize(2);
    }

    @Test
    void a5xxMovesToTheNextUrl() {
        first.reply(503, "{\"error\":\"shutting down\"}");
        second.reply(200, ACKED);

        client(first.url(), second.url()).ack(Ack.completed(message()));

        assertThat(first.requests).hasSize(1);
        assertThat(second.requests).hasSize(1);
        assertThat(slept).isEmpty();
    }

    @Test
    void a4xxIsThrownAtOnceWithTheBrokersErrorAndCode() {
        first.reply(404, "{\"error\":\"Queue 'x' does not exist\",\"code\":\"QUEUE_NOT_FOUND\"}");
        second.reply(200, "{}");

        assertThatThrownBy(() -> client(first.url(), second.url()).depth("x", null))
                .isInstanceOfSatisfying(BrokerRefusedException.class, e -> {
                    assertThat(e.status()).isEqualTo(404);
                    assertThat(e.error()).isEqualTo("Queue 'x' does not exist");
                    assertThat(e.code()).isEqualTo("QUEUE_NOT_FOUND");
                });
        assertThat(first.requests).hasSize(1);
        assertThat(second.requests).as("a 4xx is no reason to fail over").isEmpty();
        assertThat(slept).isEmpty();
    }

    @Test
    void a429BacksOffOnTheSameUrlAndIsThrownWhenItLasts() {
        first.reply(429, "{\"error\":\"Queue 'q' is full\",\"code\":\"QUEUE_FULL\"}");
        second.reply(200, "[]");

        assertThatThrownBy(() -> client(first.url(), second.url()).push(Job.of("q", null)))
                .isInstanceOfSatisfying(BrokerRefusedException.class, e -> assertThat(e.code()).isEqualTo("QUEUE_FULL"));
        assertThat(first.requests).hasSize(3);
        assertThat(second.requests).isEmpty();
        assertThat(slept).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    @Test
    void aPushWithoutTransactionIdGetsOneSoItsRetriesAreDeduplicated() {
        first.reply(201, "[{\"index\":0,\"transaction_id\":\"x\",\"status\":\"queued\",\"message_id\":\"m\","
                + "\"partition_id\":\"p\",\"trace_id\":null,\"queueName\":\"q\"}]");
        ReginaClient client = client(first.url());

        Pushed pushed = client.push(Job.of("q", client.json().readTree("{\"n\":1}")).delay(Duration.ofSeconds(5)));

        assertThat(pushed.messageId()).isEqualTo("m");
        JsonNode item = client.json().readTree(first.requests.get(0).body()).path("items").get(0);
        assertThat(item.path("transactionId").asString()).hasSize(36);
        assertThat(item.path("delayMs").asLong()).isEqualTo(5000);
        assertThat(item.has("partition")).as("nulls are left out").isFalse();
        assertThat(first.requests.get(0).authorization()).isEqualTo("Bearer secret");
    }

    @Test
    void aPopWithNothingIsEmptyAndSendsItsOptions() {
        first.reply(204, "");

        Popped popped = client(first.url()).pop("q", PopOptions.defaults().batch(4).waitUpTo(Duration.ofSeconds(2))
                .consumerGroup("workers").leaseSeconds(30));

        assertThat(popped.isEmpty()).isTrue();
        assertThat(first.requests.get(0).target())
                .isEqualTo("/api/v1/pop/queue/q?batch=4&wait=true&timeout=2000&consumerGroup=workers&leaseSeconds=30");
    }

    @Test
    void aTransactionSendsItsAcksFlatWithTheirTypeAndTheRequiredLeases() {
        first.reply(200, "{\"transactionId\":\"x\",\"success\":false,\"error\":\"Required lease lease-1 is not active\","
                + "\"results\":[]}");
        ReginaClient client = client(first.url());

        TransactionResult result = client.transaction(new Transaction().ack(Ack.retry(message()))
                .push(Job.of("next", null).transactionId("n1")).requireLease("lease-1"));

        assertThat(result.success()).isFalse();
        JsonNode body = client.json().readTree(first.requests.get(0).body());
        assertThat(body.toString()).isEqualTo("{\"operations\":[{\"type\":\"ack\",\"transactionId\":\"t\","
                + "\"partitionId\":\"p\",\"status\":\"retry\",\"consumerGroup\":\"__QUEUE_MODE__\",\"leaseId\":\"lease-1\"},"
                + "{\"type\":\"push\",\"items\":[{\"queue\":\"next\",\"transactionId\":\"n1\"}]}],"
                + "\"requiredLeases\":[\"lease-1\"]}");
    }
}
