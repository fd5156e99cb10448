package io.regina.bench;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * Redis driven with Laravel's Redis-queue algorithm (what Horizon runs underneath; Illuminate\Queue\RedisQueue
 * and LuaScripts): a Lua push, a pop that first migrates due delayed and expired reserved jobs back onto the
 * list, then pops one job onto the reserved sorted set with its attempts incremented, BLPOP on the notify list
 * when the list is empty, and ZREM of the reserved copy on ack. Jedis, one connection per worker.
 */
final class RedisSystem implements QueueSystem {

    /** LuaScripts::push(). */
    private static final String PUSH = "redis.call('rpush', KEYS[1], ARGV[1])\n"
            + "redis.call('rpush', KEYS[2], 1)";

    /** LuaScripts::pop(). */
    private static final String POP = "local job = redis.call('lpop', KEYS[1])\n"
            + "local reserved = false\n"
            + "if(job ~= false) then\n"
            + "    reserved = cjson.decode(job)\n"
            + "    reserved['attempts'] = reserved['attempts'] + 1\n"
            + "    reserved = cjson.encode(reserved)\n"
            + "    redis.call('zadd', KEYS[2], ARGV[1], reserved)\n"
            + "    redis.call('lpop', KEYS[3])\n"
            + "end\n"
            + "return {job, reserved}";

    /** LuaScripts::migrateExpiredJobs(), with Laravel's default migration batch size of -1 (all due). */
    private static final String MIGRATE = "local val = redis.call('zrangebyscore', KEYS[1], '-inf', ARGV[1], "
            + "'limit', 0, ARGV[2])\n"
            + "if(next(val) ~= nil) then\n"
            + "    redis.call('zremrangebyrank', KEYS[1], 0, #val - 1)\n"
            + "    for i = 1, #val, 100 do\n"
            + "        redis.call('rpush', KEYS[2], unpack(val, i, math.min(i+99, #val)))\n"
            + "        for j = i, math.min(i+99, #val) do\n"
            + "            redis.call('rpush', KEYS[3], 1)\n"
            + "        end\n"
            + "    end\n"
            + "end\n"
            + "return val";

    /** Laravel's default retry_after, seconds. */
    private static final int RETRY_AFTER = 90;
    /** Laravel's block_for, seconds: set, so an idle worker blocks on the notify list instead of polling. */
    private static final double BLOCK_FOR = 1.0;

    private final String host;
    private final int port;
    private final long pid;
    private final AtomicLong requests = new AtomicLong();
    private final String version;
    private final String fsync;
    private final String push;
    private final String pop;
    private final String migrate;

    RedisSystem(String host, int port, long pid) {
        this.host = host;
        this.port = port;
        this.pid = pid;
        try (Jedis j = connect()) {
            this.version = j.info("server").lines().filter(l -> l.startsWith("redis_version:"))
                    .map(l -> l.substring("redis_version:".length()).trim()).findFirst().orElse("?");
            this.fsync = "appendonly " + j.configGet("appendonly").get("appendonly") + ", appendfsync "
                    + j.configGet("appendfsync").get("appendfsync") + ", auto-aof-rewrite-percentage "
                    + j.configGet("auto-aof-rewrite-percentage").get("auto-aof-rewrite-percentage");
            this.push = j.scriptLoad(PUSH);
            this.pop = j.scriptLoad(POP);
            this.migrate = j.scriptLoad(MIGRATE);
        }
        if (!fsync.contains("appendfsync always")) {
            throw new IllegalStateException("Redis is not fsyncing every write: " + fsync);
        }
    }

    private Jedis connect() {
        // RESP2, as Laravel's phpredis and Predis speak it; saying so also stops Jedis 8 warning on every connect
        return new Jedis(new HostAndPort(host, port), DefaultJedisClientConfig.builder().socketTimeoutMillis(30_000)
                .autoNegotiateProtocol(false).build());
    }

    @Override
    public String name() {
        return "Redis (Laravel algorithm)";
    }

    @Override
    public String describe() {
        return "Redis " + version + ", " + fsync + "; Laravel's RedisQueue algorithm (Lua push; pop = migrate "
                + "delayed + reserved, LPOP onto the reserved set; BLPOP notify 1 s when empty; ack = ZREM), "
                + "Jedis 8, one connection per worker";
    }

    @Override
    public long pid() {
        return pid;
    }

    private static String notifyKey(String q) {
        return "queues:" + q + ":notify";
    }

    private static String reserved(String q) {
        return "queues:" + q + ":reserved";
    }

    private static String delayed(String q) {
        return "queues:" + q + ":delayed";
    }

    private static String list(String q) {
        return "queues:" + q;
    }

    @Override
    public void create(String queue, int stripes) {
        delete(queue);
    }

    @Override
    public void enqueue(String queue, JobSet jobs) {
        List<String> keys = List.of(list(queue), notifyKey(queue));
        try (Jedis j = connect()) {
            for (int from = 0; from < jobs.count(); from += 500) {
                int to = Math.min(jobs.count(), from + 500);
                Pipeline p = j.pipelined();
                for (int i = from; i < to; i++) {
                    p.evalsha(push, keys, List.of(jobs.payload(i)));
                }
                p.sync();
                requests.addAndGet(to - from);
            }
        }
    }

    @Override
    public Pusher pusher(String queue) {
        Jedis j = connect();
        List<String> keys = List.of(list(queue), notifyKey(queue));
        return new Pusher() {
            @Override
            public void push(JobSet jobs, int index) {
                requests.incrementAndGet();
                j.evalsha(push, keys, List.of(jobs.payload(index)));
            }

            @Override
            public void close() {
                j.close();
            }
        };
    }

    @Override
    public Workers start(String queue, int workers, JobHandler handler) throws Exception {
        return new PullWorkers("redis", workers, () -> new Worker(connect(), queue), handler);
    }

    /** RedisQueue::pop() and deleteReserved() on one connection. */
    private final class Worker implements PullWorkers.Puller {
        private final Jedis j;
        private final List<String> delayedKeys;
        private final List<String> reservedKeys;
        private final List<String> popKeys;
        private final String notifyList;
        private final String reservedKey;

        Worker(Jedis j, String q) {
            this.j = j;
            this.delayedKeys = List.of(delayed(q), list(q), notifyKey(q));
            this.reservedKeys = List.of(reserved(q), list(q), notifyKey(q));
            this.popKeys = List.of(list(q), reserved(q), notifyKey(q));
            this.notifyList = notifyKey(q);
            this.reservedKey = reserved(q);
        }

        @Override
        public PullWorkers.Delivery pop() {
            String now = Long.toString(System.currentTimeMillis() / 1000);
            List<String> migrateArgs = List.of(now, "-1");
            j.evalsha(migrate, delayedKeys, migrateArgs);
            j.evalsha(migrate, reservedKeys, migrateArgs);
            requests.addAndGet(2);
            PullWorkers.Delivery job = next();
            if (job == null) {
                requests.incrementAndGet();
                if (j.blpop(BLOCK_FOR, notifyList) != null) {
                    job = next();
                }
            }
            return job;
        }

        @SuppressWarnings("unchecked")
        private PullWorkers.Delivery next() {
            String availableAt = Long.toString(System.currentTimeMillis() / 1000 + RETRY_AFTER);
            requests.incrementAndGet();
            List<String> answer = (List<String>) j.evalsha(pop, popKeys, List.of(availableAt));
            if (answer == null || answer.isEmpty() || answer.get(0) == null) {
                return null;
            }
            String reservedCopy = answer.get(1);
            return new PullWorkers.Delivery(JobSet.idInPayload(reservedCopy), "", reservedCopy);
        }

        @Override
        public void ack(PullWorkers.Delivery job) {
            requests.incrementAndGet();
            if (j.zrem(reservedKey, job.receipt()) != 1) {
                throw new IllegalStateException("ZREM found no reserved copy of " + job.id());
            }
        }

        @Override
        public void close() {
            j.close();
        }
    }

    @Override
    public void delete(String queue) {
        try (Jedis j = connect()) {
            j.del(list(queue), notifyKey(queue), reserved(queue), delayed(queue));
        }
    }

    @Override
    public long requests() {
        return requests.get();
    }

    @Override
    public void close() {
        // the redis-server process belongs to bench/run.sh
    }
}
