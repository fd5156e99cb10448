package io.regina.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Java client of Regina's HTTP API (API.md), on the JDK's HTTP client and Jackson only. Thread-safe; one
 * per application. Every call retries network errors and 5xx answers on the next broker URL and then after
 * 1 s and 2 s, backs off on a 429, and throws {@link BrokerRefusedException} for any other 4xx at once
 * ({@link BrokerHttp}).
 *
 * <pre>{@code
 * ReginaClient regina = ReginaClient.builder().urls("http://10.0.0.1:6632", "http://10.0.0.2:6632").build();
 * regina.push(Job.of("emails", regina.json().valueToTree(new Welcome("ada@example.com"))));
 * Popped popped = regina.pop("emails", PopOptions.defaults().batch(10).waitUpTo(Duration.ofSeconds(20)));
 * }</pre>
 */
public final class ReginaClient {
    /** The payload field naming a dispatched job's kind; {@link #dispatch} writes it, a worker reads it. */
    public static final String JOB_FIELD = "job";
    /** The payload field holding a dispatched job's own data. */
    public static final String DATA_FIELD = "data";

    private static final TypeReference<List<Pushed>> PUSHED = new TypeReference<>() { };
    private static final TypeReference<List<Acked>> ACKED = new TypeReference<>() { };
    private static final TypeReference<List<LeaseExtension>> EXTENDED = new TypeReference<>() { };

    private final BrokerHttp http;
    private final JsonMapper json;

    private ReginaClient(BrokerHttp http, JsonMapper json) {
        this.http = http;
        this.json = json;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The mapper the client reads and writes with: use it to turn payloads into trees and back. */
    public JsonMapper json() {
        return json;
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record PushBody(List<Job> items) {
    }

    record AckBatchBody(List<Ack> acknowledgments) {
    }

    record ExtendBody(int seconds) {
    }

    /** Creates or reconfigures {@code queue}; every option left out returns to its default (API.md A3). */
    public JsonNode configure(String queue, Map<String, Object> options) {
        return call("POST", "/api/v1/configure", Map.of("queue", queue, "options", options), JsonNode.class);
    }

    public Pushed push(Job job) {
        return push(List.of(job)).get(0);
    }

    /** Pushes {@code jobs} in one request, visible together; each without a transactionId gets one. */
    public List<Pushed> push(List<Job> jobs) {
        List<Job> items = new ArrayList<>(jobs.size());
        for (Job job : jobs) {
            items.add(job.withTransactionId());
        }
        return call("POST", "/api/v1/push", new PushBody(items), PUSHED);
    }

    /**
     * Pushes a job of {@code kind} for a worker: the payload is {@code {"job": kind, "data": data}}, which the
     * worker reads to choose the handler and bind {@code data}.
     */
    public Pushed dispatch(String queue, String kind, Object data) {
        return push(dispatchJob(queue, kind, data));
    }

    /** The job {@link #dispatch} pushes, to change (delay, partition, transactionId) before pushing. */
    public Job dispatchJob(String queue, String kind, Object data) {
        return Job.of(queue, json.createObjectNode().put(JOB_FIELD, kind).set(DATA_FIELD, json.valueToTree(data)));
    }

    /** Pops from {@code queue}; {@link Popped#isEmpty()} when nothing came. */
    public Popped pop(String queue, PopOptions options) {
        BrokerHttp.Answer answer = http.send("GET", options.path("/api/v1/pop/queue/", queue) + options.query(), null,
                options.longPoll());
        return answer.status() == 204 || answer.body().length == 0 ? Popped.NOTHING
                : json.readValue(answer.body(), Popped.class);
    }

    public Acked ack(Ack ack) {
        return call("POST", "/api/v1/ack", ack, ACKED).get(0);
    }

    public List<Acked> ack(List<Ack> acks) {
        return call("POST", "/api/v1/ack/batch", new AckBatchBody(acks), ACKED);
    }

    /**
     * Applies {@code acks} (maybe none) and then pops, in one request and one durable write. When an ack
     * names a lease that no longer holds its message, nothing applies: {@link BrokerRefusedException} with
     * status 409 and code {@code LEASE_NOT_HELD}.
     */
    public AckedAndPopped ackThenPop(String queue, List<Ack> acks, PopOptions options) {
        return json.readValue(http.send("POST", options.path("/api/v1/ack/pop/queue/", queue) + options.query(),
                new AckBatchBody(acks), options.longPoll()).body(), AckedAndPopped.class);
    }

    public TransactionResult transaction(Transaction transaction) {
        return call("POST", "/api/v1/transaction", transaction.body(), TransactionResult.class);
    }

    /** Extends {@code leaseId} to at least now + {@code seconds} on every partition it holds. */
    public LeaseExtension extendLease(String leaseId, int seconds) {
        return call("POST", "/api/v1/lease/" + Query.segment(leaseId) + "/extend", new ExtendBody(seconds), EXTENDED)
                .get(0);
    }

    /**
     * Waits up to {@code timeout} for {@code consumerGroup} (null: queue mode) to have deliverable work on
     * {@code queue}, on {@code partitions} (empty: all), leasing nothing.
     */
    public Watch watch(String queue, String consumerGroup, List<String> partitions, Duration timeout) {
        String query = new Query().add("consumerGroup", consumerGroup)
                .add("partition", partitions.isEmpty() ? null : String.join(",", partitions))
                .add("timeout", timeout.toMillis()).toString();
        return json.readValue(http.send("GET", "/api/v1/watch/queue/" + Query.segment(queue) + query, null, timeout)
                .body(), Watch.class);
    }

    public Depth depth(String queue, String consumerGroup) {
        return call("GET", "/api/v1/queues/" + Query.segment(queue) + "/depth"
                + new Query().add("consumerGroup", consumerGroup), null, Depth.class);
    }

    public FailedJobs failedJobs() {
        return new FailedJobs(this);
    }

    <T> T call(String method, String path, Object body, Class<T> answer) {
        return json.readValue(http.send(method, path, body, Duration.ZERO).body(), answer);
    }

    private <T> T call(String method, String path, Object body, TypeReference<T> answer) {
        return json.readValue(http.send(method, path, body, Duration.ZERO).body(), answer);
    }

    /** Settings of a {@link ReginaClient}; {@link #urls} is the only one required. */
    public static final class Builder {
        private final List<URI> urls = new ArrayList<>();
        private String token;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration requestTimeout = Duration.ofSeconds(30);
        private List<Duration> retryDelays = List.of(Duration.ofSeconds(1), Duration.ofSeconds(2));
        private BrokerHttp.Sleeper sleeper = duration -> Thread.sleep(duration.toMillis());
        private JsonMapper json;

        private Builder() {
        }

        /** The brokers, tried in this order; a network error or a 5xx moves to the next. */
        public Builder urls(String... bases) {
            for (String base : bases) {
                String url = base.trim();
                URI uri = URI.create(url.endsWith("/") ? url : url + "/");
                if (uri.getHost() == null || !uri.getScheme().startsWith("http")) {
                    throw new IllegalArgumentException("expected http://host:port, got '" + base + "'");
                }
                urls.add(uri);
            }
            return this;
        }

        /** A bearer token for brokers with auth on; null or empty sends none. */
        public Builder token(String bearer) {
            this.token = bearer;
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        /** How long one request may take, on top of the long-poll it asks for. */
        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = timeout;
            return this;
        }

        /** The waits before the second, third… round of a failing request; Queen's 1 s, 2 s by default. */
        public Builder retryDelays(Duration... delays) {
            this.retryDelays = List.of(delays);
            return this;
        }

        /** Reads and writes with this mapper (it must keep unknown answer fields from failing). */
        public Builder json(JsonMapper mapper) {
            this.json = mapper;
            return this;
        }

        Builder sleeper(BrokerHttp.Sleeper waits) {
            this.sleeper = waits;
            return this;
        }

        public ReginaClient build() {
            if (urls.isEmpty()) {
                throw new IllegalStateException("a ReginaClient needs at least one broker URL");
            }
            JsonMapper mapper = json != null ? json
                    : JsonMapper.builder().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
            return new ReginaClient(new BrokerHttp(urls, token, connectTimeout, requestTimeout, retryDelays, sleeper,
                    mapper), mapper);
        }
    }
}
