package io.regina.faults;

import io.regina.testing.BrokerProcess;

import java.time.Duration;
import java.util.List;
import java.util.Random;

/**
 * The faults the randomised schedule picks from, each the lane it comes from in miniature: it
 * applies the fault and heals it (thaw, restart and catch up) before it returns, so at most one node
 * is ever down or frozen and the cluster keeps a majority.
 */
enum Nemesis {
    FREEZE_LEADER {
        @Override
        String apply(FaultRun run, Random random) throws Exception {
            Duration frozen = Duration.ofMillis(2_000 + random.nextInt(6_000));
            Freeze.leader(run, frozen);
            return "froze the leader for " + frozen.toMillis() + " ms";
        }
    },
    FREEZE_FOLLOWER {
        @Override
        String apply(FaultRun run, Random random) throws Exception {
            BrokerProcess follower = follower(run, random);
            long frozenMs = 1_000 + random.nextInt(5_000);
            follower.freeze();
            try {
                Thread.sleep(frozenMs);
            } finally {
                follower.thaw();
            }
            return "froze follower " + follower.baseUrl() + " for " + frozenMs + " ms";
        }
    },
    KILL_AND_RESTART {
        @Override
        String apply(FaultRun run, Random random) throws Exception {
            BrokerProcess node = any(run, random);
            node.kill();
            Thread.sleep(500 + random.nextInt(3_000));
            run.restartAndCatchUp(node);
            return "SIGKILLed and restarted " + node.baseUrl();
        }
    },
    TERMINATE_AND_RESTART {
        @Override
        String apply(FaultRun run, Random random) throws Exception {
            BrokerProcess node = any(run, random);
            node.stop();
            Thread.sleep(500 + random.nextInt(2_000));
            run.restartAndCatchUp(node);
            return "SIGTERMed and restarted " + node.baseUrl();
        }
    },
    TORN_TAIL {
        @Override
        String apply(FaultRun run, Random random) throws Exception {
            BrokerProcess node = follower(run, random);
            TornTail.Tear torn = run.killAndTear(node);
            run.restartAndCatchUp(node);
            return "SIGKILLed " + node.baseUrl() + ", tore " + torn + " and restarted it";
        }
    };

    /** Applies this fault and heals it; says what it did, for the schedule's log. */
    abstract String apply(FaultRun run, Random random) throws Exception;

    private static BrokerProcess any(FaultRun run, Random random) {
        List<BrokerProcess> nodes = run.cluster().nodes();
        return nodes.get(random.nextInt(nodes.size()));
    }

    private static BrokerProcess follower(FaultRun run, Random random) {
        List<BrokerProcess> followers = run.others(run.leader());
        return followers.get(random.nextInt(followers.size()));
    }
}
