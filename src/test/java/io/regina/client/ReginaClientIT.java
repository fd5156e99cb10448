package io.regina.client;

import io.regina.testing.RunningBroker;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every call of {@link ReginaClient} against the real broker. */
class ReginaClientIT extends RunningBroker {
    private ReginaClient regina;
    private String q;

    record Greeting(String to, int times) {
    }

    @BeforeEach
    void client() {
        regina = ReginaClient.builder().urls("http://127.0.0.1:" + port).build();
        q = "client-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private JsonNode tree(Object value) {
        return regina.json().valueToTree(value);
    }

    @Test
    void pushPopAckAndAckThenPop() {
        List<Pushed> pushed = regina.push(List.of(Job.of(q, tree(Map.of("n", 1))).transactionId("one"),
                Job.of(q, tree(Map.of("n", 2))), Job.of(q, tree(Map.of("n", 3)))));
        assertThat(pushed).extracting(Pushed::status).containsExactly("queued", "queued", "queued");
        assertThat(regina.push(Job.of(q, tree(Map.of("n", 1))).transactionId("one")).duplicate()).isTrue();

        Popped first = regina.pop(q, PopOptions.defaults().leaseSeconds(30));
        assertThat(first.messages()).singleElement().satisfies(m -> {
            assertThat(m.data().path("n").asInt()).isEqualTo(1);
            assertThat(m.attempts()).isEqualTo(1);
            assertThat(m.leaseId()).isEqualTo(first.leaseId());
        });
        assertThat(regina.extendLease(first.leaseId(), 60).success()).isTrue();

        AckedAndPopped next = regina.ackThenPop(q, List.of(Ack.completed(first.messages().get(0))),
                PopOptions.defaults().batch(5));
        assertThat(next.acknowledged()).singleElement().satisfies(a -> assertThat(a.success()).isTrue());
        assertThat(next.pop().messages()).extracting(m -> m.data().path("n").asInt()).containsExactly(2, 3);

        List<Acked> acked = regina.ack(next.pop().messages().stream().map(Ack::completed).toList());
        assertThat(acked).allSatisfy(a -> assertThat(a.success()).isTrue());
        assertThat(regina.pop(q, PopOptions.defaults().waitUpTo(Duration.ofMillis(200))).isEmpty()).isTrue();
        assertThat(regina.depth(q, null).total()).isZero();
    }

    @Test
    void aDispatchedJobCarriesItsKindAndData() {
        regina.dispatch(q, "greet", new Greeting("ada", 2));

        Message m = regina.pop(q, PopOptions.defaults()).messages().get(0);

        assertThat(m.data().path(ReginaClient.JOB_FIELD).asString()).isEqualTo("greet");
        assertThat(regina.json().treeToValue(m.data().path(ReginaClient.DATA_FIELD), Greeting.class))
                .isEqualTo(new Greeting("ada", 2));
    }

    @Test
    void aStaleLeaseFencesAckThenPopAndATransactionsRequiredLeases() throws Exception {
        regina.push(Job.of(q, tree("job")));
        Message a = regina.pop(q, PopOptions.defaults().leaseSeconds(1)).messages().get(0);
        Thread.sleep(1_500);
        Message b = regina.pop(q, PopOptions.defaults().waitUpTo(Duration.ofSeconds(10))).messages().get(0);
        assertThat(b.attempts()).isEqualTo(2);

        assertThatThrownBy(() -> regina.ackThenPop(q, List.of(Ack.completed(a)), PopOptions.defaults()))
                .isInstanceOfSatisfying(BrokerRefusedException.class, e -> {
                    assertThat(e.status()).isEqualTo(409);
                    assertThat(e.code()).isEqualTo("LEASE_NOT_HELD");
                });
        TransactionResult fenced = regina.transaction(new Transaction().ack(Ack.retry(a))
                .push(Job.of(q + "-next", tree("x"))).requireLease(a.leaseId()));
        assertThat(fenced.success()).isFalse();
        assertThat(fenced.error()).contains("is not active");

        TransactionResult done = regina.transaction(new Transaction().ack(Ack.completed(b))
                .push(Job.of(q + "-next", tree("x"))).requireLease(b.leaseId()));
        assertThat(done.success()).isTrue();
        assertThat(done.results()).extracting(TransactionResult.Result::type).containsExactly("ack", "push");
        assertThat(regina.depth(q + "-next", null).ready()).isEqualTo(1);
    }

    @Test
    void aWatchWakesOnAPushAndDepthCountsTheGroup() throws Exception {
        assertThat(regina.watch(q, "workers", List.of(), Duration.ofMillis(100)).deliverable()).isFalse();
        CompletableFuture<Watch> watching = CompletableFuture.supplyAsync(
                () -> regina.watch(q, "workers", List.of(), Duration.ofSeconds(20)));
        Thread.sleep(300);
        regina.push(Job.of(q, tree("burst")).delay(Duration.ZERO));

        Watch woken = watching.get(15, TimeUnit.SECONDS);
        assertThat(woken.deliverable()).isTrue();
        assertThat(woken.ready()).isEqualTo(1);
        Depth depth = regina.depth(q, "workers");
        assertThat(depth.consumerGroup()).isEqualTo("workers");
        assertThat(depth.ready()).isEqualTo(1);
        assertThatThrownBy(() -> regina.depth("no-such-" + q, null)).isInstanceOfSatisfying(
                BrokerRefusedException.class, e -> assertThat(e.code()).isEqualTo("QUEUE_NOT_FOUND"));
    }

    @Test
    void failedJobsAreListedShownRetriedForgottenAndFlushed() {
        regina.configure(q, Map.of("retryLimit", 0));
        regina.push(List.of(Job.of(q, tree("a")), Job.of(q, tree("b")), Job.of(q, tree("c"))));
        for (Message m : regina.pop(q, PopOptions.defaults().batch(3)).messages()) {
            regina.ack(Ack.dlq(m, "broken " + m.data().asString()));
        }

        FailedJobPage page = regina.failedJobs().list(FailedJobQuery.ofQueue(q));
        assertThat(page.total()).isEqualTo(3);
        FailedJob row = page.items().stream().filter(r -> r.data().asString().equals("a")).findFirst().orElseThrow();
        assertThat(regina.failedJobs().show(row.uuid()).error()).isEqualTo("broken a");

        assertThat(regina.failedJobs().retry(List.of(row.uuid(), "no-such-id")).missing()).containsExactly("no-such-id");
        assertThat(regina.pop(q, PopOptions.defaults()).messages().get(0).data().asString()).isEqualTo("a");
        String b = regina.failedJobs().list(FailedJobQuery.ofQueue(q)).items().stream()
                .filter(r -> r.data().asString().equals("b")).findFirst().orElseThrow().uuid();
        assertThat(regina.failedJobs().forget(b)).isEqualTo(1);
        assertThatThrownBy(() -> regina.failedJobs().show(b)).isInstanceOfSatisfying(BrokerRefusedException.class,
                e -> assertThat(e.status()).isEqualTo(404));
        assertThat(regina.failedJobs().flush(q, 0)).isEqualTo(1);
        assertThat(regina.failedJobs().list(FailedJobQuery.ofQueue(q)).total()).isZero();
    }
}
