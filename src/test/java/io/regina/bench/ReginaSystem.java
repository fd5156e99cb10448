package io.regina.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Regina over its HTTP API with {@link HttpConnection}: push one or many, pop with {@code batch=1} and a
 * one-second long-poll, ack one per request.
 */
final class ReginaSystem implements QueueSystem {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final String host;
    private final int port;
    private final long pid;
    private final String build;
    private final AtomicLong requests = new AtomicLong();
    private final boolean oneRequest;
    private final String token;

    /**
     * @param oneRequest workers ack and take their next job in one request ({@code POST /ack/pop}, Regina's
     *                   extension) instead of an ack and a pop
     */
    ReginaSystem(String url, long pid, String build, boolean oneRequest) {
        this(url, pid, build, oneRequest, null);
    }

    /** @param token a bearer token every connection sends on every request (a broker with API auth on), or null */
    ReginaSystem(String url, long pid, String build, boolean oneRequest, String token) {
        URI uri = URI.create(url);
        this.host = uri.getHost();
        this.port = uri.getPort();
        this.pid = pid;
        this.build = build;
        this.oneRequest = oneRequest;
        this.token = token;
    }

    @Override
    public String name() {
        return oneRequest ? "Regina ack+pop" : "Regina";
    }

    @Override
    public String describe() {
        return build + "; single Raft node, every acknowledged write fsynced (Ratis durable log flush); "
                + "client: minimal keep-alive HTTP/1.1 socket client, one connection per worker, pop batch=1 "
                + "long-poll 1 s, " + (oneRequest ? "each ack carrying the next pop (POST /api/v1/ack/pop, no wait; "
                + "a long-poll pop only when it brought nothing)" : "one ack per request");
    }

    @Override
    public long pid() {
        return pid;
    }

    /** A new connection whose requests count towards {@link #requests()} when given back by {@link #count}. */
    HttpConnection connect() {
        return new HttpConnection(host, port, token);
    }

    void count(HttpConnection c) {
        requests.addAndGet(c.requests());
    }

    @Override
    public void create(String queue, int stripes) throws IOException {
        try (HttpConnection c = connect()) {
            HttpConnection.Response r = c.post("/api/v1/configure", utf8("{\"queue\":\"" + queue
                    + "\",\"options\":{\"stripes\":" + stripes + "}}"));
            count(c);
            expect(r, 200, "configure " + queue);
        }
    }

    @Override
    public void enqueue(String queue, JobSet jobs) throws IOException {
        try (HttpConnection c = connect()) {
            for (int from = 0; from < jobs.count(); from += 500) {
                int to = Math.min(jobs.count(), from + 500);
                StringBuilder sb = new StringBuilder((to - from) * 400).append("{\"items\":[");
                for (int i = from; i < to; i++) {
                    item(sb.append(i == from ? "" : ","), queue, null, jobs, i);
                }
                push(c, sb.append("]}").toString(), to - from);
            }
            count(c);
        }
    }

    /** Appends one push item: the job's id as transactionId and its payload. */
    static StringBuilder item(StringBuilder sb, String queue, String partition, JobSet jobs, int i) {
        sb.append("{\"queue\":\"").append(queue).append('"');
        if (partition != null) {
            sb.append(",\"partition\":\"").append(partition).append('"');
        }
        return sb.append(",\"transactionId\":\"").append(jobs.id(i)).append("\",\"payload\":")
                .append(jobs.payload(i)).append('}');
    }

    /** Pushes a prepared body and fails unless all {@code expected} items were queued. */
    static void push(HttpConnection c, String body, int expected) throws IOException {
        HttpConnection.Response r = c.post("/api/v1/push", utf8(body));
        expect(r, 201, "push");
        int queued = count(r.text(), "\"status\":\"queued\"");
        if (queued != expected) {
            throw new IllegalStateException("push queued " + queued + " of " + expected + ": " + abbrev(r.text()));
        }
    }

    @Override
    public Pusher pusher(String queue) {
        HttpConnection c = connect();
        return new Pusher() {
            @Override
            public void push(JobSet jobs, int index) throws IOException {
                ReginaSystem.push(c, item(new StringBuilder(420).append("{\"items\":["), queue, null, jobs, index)
                        .append("]}").toString(), 1);
            }

            @Override
            public void close() {
                count(c);
                c.close();
            }
        };
    }

    /** Raft entries submitted and log flushes (each an fsync: unsafe flush is off), from the broker's meters. */
    @Override
    public long[] durableWrites() throws IOException {
        try (HttpConnection c = connect()) {
            return new long[] {meter(c, "regina.raft.entries"), meter(c, "regina.raft.log.flushes")};
        }
    }

    private static long meter(HttpConnection c, String name) throws IOException {
        HttpConnection.Response r = c.get("/actuator/metrics/" + name);
        expect(r, 200, "meter " + name);
        return (long) JSON.readTree(r.body()).path("measurements").path(0).path("value").asDouble();
    }

    @Override
    public Workers start(String queue, int workers, JobHandler handler) throws Exception {
        String pop = "/api/v1/pop/queue/" + queue + "?batch=1&wait=true&timeout=1000";
        return new PullWorkers("regina", workers, () -> new Worker(connect(), queue, pop), handler);
    }

    /**
     * One worker's connection: pop from {@code popPath}, ack by transactionId, partition and lease; in the
     * one-request mode each ack asks for the next job too, which the following pop hands out without a request.
     */
    final class Worker implements PullWorkers.Puller {
        private final HttpConnection c;
        private final String popPath;
        private final String ackPopPath;
        private PullWorkers.Delivery next;

        Worker(HttpConnection c, String queue, String popPath) {
            this.c = c;
            this.popPath = popPath;
            this.ackPopPath = "/api/v1/ack/pop/queue/" + queue + "?batch=1";
        }

        @Override
        public PullWorkers.Delivery pop() throws IOException {
            if (next != null) {
                PullWorkers.Delivery job = next;
                next = null;
                return job;
            }
            HttpConnection.Response r = c.get(popPath);
            if (r.status() == 204) {
                return null;
            }
            expect(r, 200, "pop");
            return delivery(JSON.readTree(r.body()));
        }

        private static PullWorkers.Delivery delivery(JsonNode pop) {
            JsonNode messages = pop.path("messages");
            if (messages.size() != 1) {
                throw new IllegalStateException("pop batch=1 answered " + messages.size() + " messages");
            }
            JsonNode m = messages.get(0);
            return new PullWorkers.Delivery(m.path("transactionId").asString(""), m.path("partitionId").asString(""),
                    m.path("leaseId").asString(pop.path("leaseId").asString("")));
        }

        @Override
        public void ack(PullWorkers.Delivery job) throws IOException {
            String ack = "{\"transactionId\":\"" + job.id() + "\",\"partitionId\":\"" + job.partition()
                    + "\",\"leaseId\":\"" + job.receipt() + "\",\"status\":\"completed\"}";
            if (!oneRequest) {
                HttpConnection.Response r = c.post("/api/v1/ack", utf8(ack));
                expect(r, 200, "ack");
                checkAcked(JSON.readTree(r.body()), r);
                return;
            }
            HttpConnection.Response r = c.post(ackPopPath, utf8("{\"acknowledgments\":[" + ack + "]}"));
            expect(r, 200, "ack+pop");
            JsonNode answer = JSON.readTree(r.body());
            checkAcked(answer.path("acknowledged"), r);
            if (!answer.path("pop").isNull()) {
                next = delivery(answer.path("pop"));
            }
        }

        private static void checkAcked(JsonNode items, HttpConnection.Response r) {
            if (!(items.isArray() && items.size() == 1 && items.get(0).path("success").asBoolean(false))) {
                throw new IllegalStateException("ack refused: " + abbrev(r.text()));
            }
        }

        @Override
        public void close() {
            count(c);
            c.close();
        }
    }

    @Override
    public void delete(String queue) throws IOException {
        try (HttpConnection c = connect()) {
            c.delete("/api/v1/resources/queues/" + queue);
            count(c);
        }
    }

    @Override
    public long requests() {
        return requests.get();
    }

    @Override
    public void close() {
        // the broker process belongs to bench/run.sh
    }

    static void expect(HttpConnection.Response r, int status, String what) {
        if (r.status() != status) {
            throw new IllegalStateException(what + " answered " + r.status() + ": " + abbrev(r.text()));
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
            n++;
        }
        return n;
    }

    private static String abbrev(String s) {
        String one = s.replace('\n', ' ');
        return one.length() > 200 ? one.substring(0, 200) + "…" : one;
    }
}
