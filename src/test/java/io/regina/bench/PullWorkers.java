package io.regina.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Worker threads for a broker the worker asks for jobs (Regina, Redis): each thread has its own connection,
 * pops one job (waiting up to about a second), runs it, acks it, and loops until stopped.
 */
final class PullWorkers implements QueueSystem.Workers {

    /** One worker's connection. */
    interface Puller extends AutoCloseable {
        /** The next job, or null when none came within the wait. */
        Delivery pop() throws Exception;

        void ack(Delivery job) throws Exception;

        @Override
        void close();
    }

    /** A delivered job: its id, and what the ack needs (lease, reserved copy). */
    record Delivery(String id, String partition, String receipt) {
    }

    interface Connector {
        Puller connect() throws Exception;
    }

    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopping;

    /** Connects every worker first, then releases them together. */
    PullWorkers(String name, int workers, Connector connector, QueueSystem.JobHandler handler) throws Exception {
        List<Puller> pullers = new ArrayList<>();
        try {
            for (int i = 0; i < workers; i++) {
                pullers.add(connector.connect());
            }
        } catch (Exception e) {
            pullers.forEach(Puller::close);
            throw e;
        }
        CountDownLatch go = new CountDownLatch(1);
        for (int i = 0; i < workers; i++) {
            Puller puller = pullers.get(i);
            Thread t = new Thread(() -> loop(go, puller, handler), name + "-worker-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        go.countDown();
    }

    private void loop(CountDownLatch go, Puller puller, QueueSystem.JobHandler handler) {
        try (puller) {
            go.await();
            while (!stopping) {
                try {
                    Delivery job = puller.pop();
                    if (job == null) {
                        continue;
                    }
                    handler.delivered(job.id());
                    handler.run(job.id());
                    puller.ack(job);
                    handler.acked(job.id());
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    if (!stopping) {
                        handler.failed(Benchmark.describe(e));
                        Thread.sleep(10);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void stop() throws InterruptedException {
        stopping = true;
        for (Thread t : threads) {
            // a worker in a long-poll returns within its wait (about 1 s)
            t.join(10_000);
            if (t.isAlive()) {
                t.interrupt();
                t.join(5_000);
            }
        }
    }
}
