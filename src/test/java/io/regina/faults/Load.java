package io.regina.faults;

import io.regina.testing.BrokerProcess;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Steady load on a cluster, every request to the next node in turn (whichever is leader, frozen or
 * down): producers push one message per request with a unique transactionId, retrying an unanswered
 * push with the same id on the next node; consumers of each group pop a batch under a lease and ack
 * it on the next node. Everything goes into a {@link History}. {@link #stopProducers()} then
 * {@link #drain(Duration)} end it.
 */
public final class Load implements AutoCloseable {

    public static final String QUEUE = "faults";
    public static final String QUEUE_MODE = "__QUEUE_MODE__";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Longer than a forwarded push takes across an election, shorter than a frozen node's 5 s. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(4);

    /**
     * @param producers         producer threads
     * @param consumersPerGroup consumer threads of each group
     * @param partitions        the partitions pushes are spread over
     * @param pushPauseMs       each producer's pause between two messages
     * @param leaseTime         the queue's lease time
     * @param groups            the consumer groups ({@link #QUEUE_MODE} for queue mode)
     */
    public record Shape(int producers, int consumersPerGroup, int partitions, long pushPauseMs, Duration leaseTime,
            List<String> groups) {

        /** What the lanes run: 3 producers at ~25 pushes/s each, 2 consumers in queue mode and 1 in a fan-out group. */
        public static Shape lanes() {
            return new Shape(3, 2, 4, 40, Duration.ofSeconds(5), List.of(QUEUE_MODE, "audit"));
        }

        /** The same consumers and no producers: to drain what an earlier load left. */
        public Shape consumersOnly() {
            return new Shape(0, consumersPerGroup, partitions, pushPauseMs, leaseTime, groups);
        }
    }

    private final List<BrokerProcess> nodes;
    private final Shape shape;
    private final History history;
    private final AtomicInteger nextNode = new AtomicInteger();
    private final AtomicBoolean producing = new AtomicBoolean(true);
    private final AtomicBoolean consuming = new AtomicBoolean(true);
    private final Map<String, AtomicInteger> emptyPopsInARow = new ConcurrentHashMap<>();
    private final AtomicLong producersStoppedAt = new AtomicLong(-1);
    private final List<Thread> producerThreads = new ArrayList<>();
    private final List<Thread> consumerThreads = new ArrayList<>();

    private Load(List<BrokerProcess> nodes, Shape shape, History history) {
        this.nodes = List.copyOf(nodes);
        this.shape = shape;
        this.history = history;
    }

    /** Configures the queue (its lease time), then starts every producer and consumer. */
    public static Load start(List<BrokerProcess> nodes, Shape shape, History history) throws Exception {
        Load load = new Load(nodes, shape, history);
        load.configure();
        load.subscribeGroups();
        for (int p = 0; p < shape.producers(); p++) {
            int producer = p;
            load.producerThreads.add(started("producer-" + p, () -> load.produce(producer)));
        }
        for (String group : shape.groups()) {
            load.emptyPopsInARow.put(group, new AtomicInteger());
            for (int c = 0; c < shape.consumersPerGroup(); c++) {
                load.consumerThreads.add(started("consumer-" + group + "-" + c, () -> load.consume(group)));
            }
        }
        return load;
    }

    private static Thread started(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    public Shape shape() {
        return shape;
    }

    private void configure() {
        String body = "{\"queue\":\"" + QUEUE + "\",\"options\":{\"leaseTime\":" + shape.leaseTime().toSeconds()
                + ",\"retryLimit\":100}}";
        BrokerProcess node = nodes.get(0);
        node.await(Duration.ofSeconds(60), "queue " + QUEUE + " configured",
                () -> node.send("POST", "/api/v1/configure", body, REQUEST_TIMEOUT).statusCode(), s -> s == 200);
    }

    /**
     * Each fan-out group reads the queue once before the first push, so that it exists from the start:
     * while a queue has no named group, queue mode drops what it consumed at once (Retention), and a group
     * whose first pop comes later (its node killed by the first fault) starts after those messages.
     */
    private void subscribeGroups() {
        for (String group : shape.groups()) {
            if (QUEUE_MODE.equals(group)) {
                continue;
            }
            BrokerProcess node = nodes.get(0);
            node.await(Duration.ofSeconds(60), "group " + group + " subscribed", () -> node.send("GET",
                    "/api/v1/pop/queue/" + QUEUE + "?batch=1&consumerGroup=" + group, null, REQUEST_TIMEOUT)
                    .statusCode(), s -> s == 204);
        }
    }

    private BrokerProcess next() {
        return nodes.get(Math.floorMod(nextNode.getAndIncrement(), nodes.size()));
    }

    private void produce(int producer) {
        for (long i = 0; producing.get(); i++) {
            String id = "p" + producer + "-" + i;
            String partition = "part-" + Math.floorMod(i, shape.partitions());
            String body = "{\"items\":[{\"queue\":\"" + QUEUE + "\",\"partition\":\"" + partition
                    + "\",\"transactionId\":\"" + id + "\",\"payload\":{\"n\":" + i + "}}]}";
            while (producing.get() && pushOnce(id, partition, body) != History.Outcome.OK) {
                pause(100);
            }
            pause(shape.pushPauseMs());
        }
    }

    private History.Outcome pushOnce(String id, String partition, String body) {
        long sent = history.now();
        History.Outcome outcome;
        try {
            HttpResponse<String> response = next().send("POST", "/api/v1/push", body, REQUEST_TIMEOUT);
            outcome = pushOutcome(response);
        } catch (ConnectException | HttpConnectTimeoutException notSent) {
            outcome = History.Outcome.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = History.Outcome.UNKNOWN;
        } catch (Exception e) {
            outcome = History.Outcome.UNKNOWN;
        }
        history.push(new History.Push(id, partition, sent, history.now(), outcome));
        return outcome;
    }

    private static History.Outcome pushOutcome(HttpResponse<String> response) {
        if (response.statusCode() == 201) {
            String status = JSON.readTree(response.body()).get(0).get("status").asString();
            return "queued".equals(status) || "duplicate".equals(status) ? History.Outcome.OK
                    : History.Outcome.UNKNOWN;
        }
        return response.statusCode() >= 400 && response.statusCode() < 500 && response.statusCode() != 408
                ? History.Outcome.FAILED : History.Outcome.UNKNOWN;
    }

    private void consume(String group) {
        String groupParam = QUEUE_MODE.equals(group) ? "" : "&consumerGroup=" + group;
        while (consuming.get()) {
            BrokerProcess node = next();
            long sent = history.now();
            try {
                HttpResponse<String> response = node.send("GET", "/api/v1/pop/queue/" + QUEUE
                        + "?batch=10&wait=true&timeout=1000" + groupParam, null, REQUEST_TIMEOUT);
                if (response.statusCode() == 204) {
                    emptyPopsInARow.get(group).incrementAndGet();
                } else if (response.statusCode() == 200) {
                    emptyPopsInARow.get(group).set(0);
                    ack(group, deliveries(group, node, sent, JSON.readTree(response.body())));
                } else {
                    pause(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception unanswered) {
                pause(100); // its lease, if it was granted, expires and the messages come back
            }
        }
    }

    private List<JsonNode> deliveries(String group, BrokerProcess node, long sent, JsonNode answer) {
        long received = history.now();
        List<JsonNode> messages = new ArrayList<>();
        int index = 0;
        for (JsonNode message : answer.get("messages")) {
            history.delivered(new History.Delivery(message.get("transactionId").asString(),
                    message.get("partition").asString(), group, message.get("leaseId").asString(),
                    node.baseUrl(), sent, received, index++));
            messages.add(message);
        }
        return messages;
    }

    private void ack(String group, List<JsonNode> messages) throws InterruptedException {
        StringBuilder body = new StringBuilder("{\"acknowledgments\":[");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            body.append(i == 0 ? "" : ",").append("{\"transactionId\":\"").append(m.get("transactionId").asString())
                    .append("\",\"partitionId\":\"").append(m.get("partitionId").asString())
                    .append("\",\"leaseId\":\"").append(m.get("leaseId").asString())
                    .append("\",\"status\":\"completed\"}");
        }
        body.append("]").append(QUEUE_MODE.equals(group) ? "" : ",\"consumerGroup\":\"" + group + "\"").append("}");
        long sent = history.now();
        JsonNode results = null;
        // a node that refuses the connection never saw the ack: the next one is asked, as a client would
        for (int attempt = 0; attempt < nodes.size() && results == null; attempt++) {
            try {
                HttpResponse<String> response = next().send("POST", "/api/v1/ack/batch", body.toString(),
                        REQUEST_TIMEOUT);
                if (response.statusCode() != 200) {
                    break;
                }
                results = JSON.readTree(response.body());
            } catch (InterruptedException e) {
                throw e;
            } catch (ConnectException | HttpConnectTimeoutException notSent) {
                continue;
            } catch (Exception unanswered) {
                break; // recorded below as unconfirmed: the lease may or may not have been released
            }
        }
        long answered = history.now();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            boolean success = results != null && results.get(i).get("success").asBoolean();
            history.acked(new History.Ack(m.get("transactionId").asString(), group, m.get("leaseId").asString(),
                    sent, answered, success));
        }
    }

    /** Stops the producers (a push in flight is answered or times out first); consumers go on. */
    public void stopProducers() throws InterruptedException {
        producing.set(false);
        for (Thread t : producerThreads) {
            t.join();
        }
        producersStoppedAt.set(history.now());
    }

    /**
     * Lets the consumers run until every group has found nothing three pops in a row, and at least a
     * lease time has passed since the producers stopped (so a lease whose answer was lost has expired
     * and its messages were delivered again); then stops them. False if {@code timeout} passed first.
     */
    public boolean drain(Duration timeout) throws InterruptedException {
        long deadline = history.now() + timeout.toMillis();
        boolean drained = false;
        while (!drained && history.now() < deadline) {
            Thread.sleep(200);
            drained = history.now() - producersStoppedAt.get() > shape.leaseTime().toMillis() + 1_000
                    && emptyPopsInARow.values().stream().allMatch(n -> n.get() >= 3);
        }
        stopConsumers();
        return drained;
    }

    private void stopConsumers() throws InterruptedException {
        consuming.set(false);
        for (Thread t : consumerThreads) {
            t.join();
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops everything still running, for a lane that failed half-way. */
    @Override
    public void close() throws InterruptedException {
        producing.set(false);
        stopConsumers();
        for (Thread t : producerThreads) {
            t.join();
        }
    }
}
