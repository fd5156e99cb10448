package io.regina.bench;

/**
 * One broker under test, driven with the same worker model as every other: N workers, each pops one job,
 * runs it, acks it, and pops the next. Named QueueSystem, not System, so that java.lang.System stays
 * visible in this package.
 */
interface QueueSystem extends AutoCloseable {

    /** Column header in the tables, e.g. "Regina". */
    String name();

    /** Version, durable setting and client, for the conditions table. */
    String describe();

    /** The broker's OS process, whose CPU and RSS the lanes read. */
    long pid();

    /** A fresh, empty queue; {@code stripes} is Regina's concurrency hint, ignored by the peers. */
    void create(String queue, int stripes) throws Exception;

    /** Enqueues every job of the set, durably, before the workers are released. */
    void enqueue(String queue, JobSet jobs) throws Exception;

    /** A connection for one-job pushes, used by one thread at a time; each push returns once durable. */
    Pusher pusher(String queue) throws Exception;

    /** Starts {@code workers} workers, each taking one job at a time (prefetch 1), until stopped. */
    Workers start(String queue, int workers, JobHandler handler) throws Exception;

    void delete(String queue) throws Exception;

    /** Client requests sent to the broker so far: HTTP requests, Redis commands or AMQP methods. */
    long requests();

    /**
     * The broker's own count of durable writes so far, {@code [log entries, fsyncs]}, or null when it does not
     * tell (Redis and RabbitMQ count neither per request).
     */
    default long[] durableWrites() throws Exception {
        return null;
    }

    @Override
    void close();

    interface Pusher extends AutoCloseable {
        void push(JobSet jobs, int index) throws Exception;

        @Override
        void close();
    }

    interface Workers {
        /** Stops every worker and waits for them; a job in hand is finished or left unacked. */
        void stop() throws InterruptedException;
    }

    /** What a lane does with each job; called from the workers' threads. */
    interface JobHandler {
        void delivered(String id);

        /** The job's own work (a sleep, or nothing). */
        void run(String id) throws InterruptedException;

        /** The ack for this job returned. */
        void acked(String id);

        void failed(String what);
    }
}
