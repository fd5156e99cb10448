package io.regina.faults;

import io.regina.testing.BrokerProcess;
import io.regina.testing.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lane 6: the leader is SIGKILLed while a bulk retry of 500 failed jobs and a 1,000-message
 * transaction, each sent to a follower, are in flight. After the failover each happened entirely or
 * not at all, on every node, and an answer that said it happened is never contradicted.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class AtomicFailoverIT {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int FAILED_JOBS = 500;
    private static final int TRANSACTION_MESSAGES = 1_000;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    /** Both requests take tens of milliseconds to commit: the kill lands while they are forwarded or replicated. */
    private static final long KILL_AFTER_MS = 10;

    @Test
    void aBulkRetryAndABigTransactionAreAllOrNothingAcrossAFailover(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = TestCluster.start(dir, 3)) {
            String leader = ClusterProbe.awaitLeader(cluster.nodes(), Set.of(), FaultRun.LEADER_TIMEOUT);
            List<BrokerProcess> followers = cluster.nodes().stream().filter(n -> n != cluster.node(leader)).toList();
            failJobs(cluster.node(leader));

            CompletableFuture<HttpResponse<String>> retry = CompletableFuture.supplyAsync(() -> send(followers.get(0),
                    "/api/v1/failed-jobs/retry", "{\"queue\":\"bulk\"}"));
            CompletableFuture<HttpResponse<String>> transaction = CompletableFuture.supplyAsync(
                    () -> send(followers.get(1), "/api/v1/transaction", transaction()));
            Thread.sleep(KILL_AFTER_MS);
            cluster.kill(leader);
            ClusterProbe.awaitLeader(followers, Set.of(leader), FaultRun.LEADER_TIMEOUT);
            HttpResponse<String> retried = retry.get(60, TimeUnit.SECONDS);
            HttpResponse<String> committed = transaction.get(60, TimeUnit.SECONDS);
            ClusterProbe.converged(followers, List.of(), Duration.ofSeconds(30));

            for (BrokerProcess node : followers) {
                long failed = JSON.readTree(node.send("GET", "/api/v1/failed-jobs?queue=bulk&limit=1", null).body())
                        .get("total").asLong();
                long back = depth(node, "bulk");
                long pushed = depth(node, "txn");
                System.out.println("FAULT LANE lane=atomic-failover node=" + node.baseUrl() + " failedJobs=" + failed
                        + " retriedBack=" + back + " transactionMessages=" + pushed + " retryAnswer="
                        + status(retried) + " transactionAnswer=" + status(committed));
                assertThat(List.of(failed, back)).as("the bulk retry, all or nothing")
                        .isIn(List.of((long) FAILED_JOBS, 0L), List.of(0L, (long) FAILED_JOBS));
                assertThat(pushed).as("the transaction, all or nothing").isIn(0L, (long) TRANSACTION_MESSAGES);
                // an answer is the truth: a forward retried on the new leader must not be applied twice
                // (it would then answer "0 retried" or a duplicate-id failure for what did happen)
                if (retried != null && retried.statusCode() == 200) {
                    assertThat(back).as("a retry answered " + retried.body())
                            .isEqualTo(JSON.readTree(retried.body()).get("retried").asLong());
                }
                if (committed != null && committed.statusCode() == 200) {
                    assertThat(pushed).as("a transaction answered " + status(committed)).isEqualTo(
                            JSON.readTree(committed.body()).get("success").asBoolean() ? TRANSACTION_MESSAGES : 0);
                }
            }
        }
    }

    /** Pushes the jobs and sends every one to the failed jobs with a {@code dlq} ack. */
    private static void failJobs(BrokerProcess node) throws Exception {
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < FAILED_JOBS; i++) {
            items.append(i == 0 ? "" : ",").append("{\"queue\":\"bulk\",\"transactionId\":\"job-").append(i)
                    .append("\",\"payload\":{\"n\":").append(i).append("}}");
        }
        assertThat(node.send("POST", "/api/v1/push", "{\"items\":[" + items + "]}", REQUEST_TIMEOUT).statusCode())
                .isEqualTo(201);
        int failed = 0;
        while (failed < FAILED_JOBS) {
            HttpResponse<String> popped = node.await(Duration.ofSeconds(30), "jobs to fail",
                    () -> node.send("GET", "/api/v1/pop/queue/bulk?batch=100&wait=true&timeout=1000", null,
                            REQUEST_TIMEOUT), r -> r.statusCode() == 200);
            List<String> acks = new ArrayList<>();
            for (JsonNode m : JSON.readTree(popped.body()).get("messages")) {
                acks.add("{\"transactionId\":\"" + m.get("transactionId").asString() + "\",\"partitionId\":\""
                        + m.get("partitionId").asString() + "\",\"leaseId\":\"" + m.get("leaseId").asString()
                        + "\",\"status\":\"dlq\",\"error\":\"lane 6\"}");
            }
            HttpResponse<String> acked = node.send("POST", "/api/v1/ack/batch",
                    "{\"acknowledgments\":[" + String.join(",", acks) + "]}", REQUEST_TIMEOUT);
            assertThat(acked.statusCode()).as(acked.body()).isEqualTo(200);
            failed += acks.size();
        }
        assertThat(depth(node, "bulk")).isZero();
    }

    private static String transaction() {
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < TRANSACTION_MESSAGES; i++) {
            items.append(i == 0 ? "" : ",").append("{\"queue\":\"txn\",\"transactionId\":\"txn-").append(i)
                    .append("\",\"payload\":{\"n\":").append(i).append("}}");
        }
        return "{\"operations\":[{\"type\":\"push\",\"items\":[" + items + "]}]}";
    }

    private static long depth(BrokerProcess node, String queue) throws Exception {
        HttpResponse<String> response = node.send("GET", "/api/v1/queues/" + queue + "/depth", null);
        return response.statusCode() == 200 ? JSON.readTree(response.body()).get("total").asLong() : 0;
    }

    /** The answer, or null when the request was cut (the outcome is then unknown). */
    private static HttpResponse<String> send(BrokerProcess node, String path, String body) {
        try {
            return node.send("POST", path, body, REQUEST_TIMEOUT);
        } catch (Exception cut) {
            return null;
        }
    }

    private static String status(HttpResponse<String> response) {
        return response == null ? "none" : response.statusCode() + (response.statusCode() == 200
                ? " " + response.body().substring(0, Math.min(80, response.body().length())) : "");
    }
}
