package io.regina.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;

/**
 * RabbitMQ with a quorum queue (its Raft WAL is fsynced before a publisher confirm), publisher confirms,
 * manual acks and prefetch 1 per worker (the lanes pop one job at a time). Each worker is a channel with
 * its own consumer; the connection's callbacks run on a shared executor of one thread per worker, where the
 * job runs and is acked, or the client crawls on its small default pool (PEERS.md).
 */
final class RabbitSystem implements QueueSystem {

    private static final int PREFETCH = 1;

    private final ConnectionFactory factory;
    private final long pid;
    private final Connection admin;
    private final AtomicLong requests = new AtomicLong();
    private final String version;

    RabbitSystem(String host, int port, long pid) throws Exception {
        this.factory = new ConnectionFactory();
        factory.setHost(host);
        factory.setPort(port);
        this.pid = pid;
        this.admin = factory.newConnection("bench-admin");
        this.version = String.valueOf(admin.getServerProperties().get("version"));
    }

    @Override
    public String name() {
        return "RabbitMQ (quorum queue)";
    }

    @Override
    public String describe() {
        return "RabbitMQ " + version + ", quorum queue (x-queue-type=quorum, fsync of the Raft WAL before each "
                + "publisher confirm), persistent messages, manual acks, prefetch " + PREFETCH + "; amqp-client "
                + "5, one channel per worker on one connection, shared executor of one thread per worker";
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public void create(String queue, int stripes) throws IOException {
        delete(queue);
        try (Channel ch = channel(admin)) {
            ch.queueDeclare(queue, true, false, false, Map.of("x-queue-type", "quorum"));
            requests.incrementAndGet();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IOException(e);
        }
    }

    private static Channel channel(Connection c) throws IOException {
        Channel ch = c.createChannel();
        if (ch == null) {
            throw new IOException("no channel available on " + c);
        }
        return ch;
    }

    private static AMQP.BasicProperties properties(String id) {
        return new AMQP.BasicProperties.Builder().messageId(id).deliveryMode(2).contentType("application/json")
                .build();
    }

    @Override
    public void enqueue(String queue, JobSet jobs) throws Exception {
        try (Channel ch = channel(admin)) {
            ch.confirmSelect();
            for (int from = 0; from < jobs.count(); from += 500) {
                int to = Math.min(jobs.count(), from + 500);
                for (int i = from; i < to; i++) {
                    ch.basicPublish("", queue, properties(jobs.id(i)), jobs.payloadBytes(i));
                }
                ch.waitForConfirmsOrDie(60_000);
                requests.addAndGet(to - from);
            }
        }
    }

    @Override
    public Pusher pusher(String queue) throws IOException {
        Channel ch = channel(admin);
        ch.confirmSelect();
        return new Pusher() {
            @Override
            public void push(JobSet jobs, int index) throws Exception {
                requests.incrementAndGet();
                ch.basicPublish("", queue, properties(jobs.id(index)), jobs.payloadBytes(index));
                ch.waitForConfirmsOrDie(30_000);
            }

            @Override
            public void close() {
                closeQuietly(ch);
            }
        };
    }

    @Override
    public Workers start(String queue, int workers, JobHandler handler) throws Exception {
        AtomicInteger n = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "rabbit-worker-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        ConnectionFactory workerFactory = factory.clone();
        workerFactory.setSharedExecutor(executor);
        Connection conn = workerFactory.newConnection("bench-workers");
        List<Channel> channels = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            Channel ch = channel(conn);
            ch.basicQos(PREFETCH);
            channels.add(ch);
        }
        for (Channel ch : channels) {
            ch.basicConsume(queue, false, new DefaultConsumer(ch) {
                @Override
                public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties props, byte[] body) {
                    String id = props.getMessageId();
                    try {
                        handler.delivered(id);
                        handler.run(id);
                        requests.incrementAndGet();
                        ch.basicAck(envelope.getDeliveryTag(), false);
                        handler.acked(id);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (Exception e) {
                        handler.failed(Benchmark.describe(e));
                    }
                }
            });
        }
        return () -> {
            try {
                conn.close(10_000);
            } catch (IOException ignored) {
                // the connection is gone already: the consumers stopped with it
            }
            // shutdown, not shutdownNow: the client's own shutdown tasks still run on this executor
            executor.shutdown();
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        };
    }

    @Override
    public void delete(String queue) throws IOException {
        try (Channel ch = channel(admin)) {
            ch.queueDelete(queue);
            requests.incrementAndGet();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IOException(e);
        }
    }

    @Override
    public long requests() {
        return requests.get();
    }

    private static void closeQuietly(Channel ch) {
        try {
            ch.close();
        } catch (Exception ignored) {
            // already closed with its connection
        }
    }

    @Override
    public void close() {
        try {
            admin.close(5_000);
        } catch (IOException ignored) {
            // the broker may already be stopping
        }
    }
}
