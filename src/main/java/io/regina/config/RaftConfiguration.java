package io.regina.config;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.regina.queue.BrokerState;
import io.regina.queue.CommandBus;
import io.regina.raft.BrokerStateMachine;
import io.regina.queue.ClusterStatus;
import io.regina.raft.GroupCommitter;
import io.regina.raft.RaftCommandBus;
import io.regina.raft.RaftMetrics;
import io.regina.raft.RaftNode;
import io.regina.raft.RaftNodeSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Wires the Raft node: settings from {@link ReginaProperties}, the state machine, the node as a
 * {@link SmartLifecycle} that starts before the web server takes traffic and stops after it, the
 * {@link CommandBus}, and Micrometer meters over {@link RaftMetrics}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ReginaProperties.class)
public class RaftConfiguration {

    /** Starts before and stops after the web server (lower phases start first and stop last). */
    static final int RAFT_PHASE = WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE - 1024;

    static RaftNodeSettings settings(ReginaProperties properties) {
        ReginaProperties.Raft raft = properties.getRaft();
        GroupCommitter.Limits limits = new GroupCommitter.Limits(raft.getMaxInflightEntries(),
                raft.getOverlapBelowCommands(), raft.getOverlapBelowOccupancy(), raft.getMaxCommandsPerEntry(),
                raft.getMaxEntryBytes(), raft.getMaxCommandBytes());
        return new RaftNodeSettings(properties.getNodeId(), RaftNodeSettings.parsePeers(properties.getPeers()),
                properties.getRaftPort(), Path.of(properties.getDataDir()).toAbsolutePath().normalize(),
                raft.getSnapshotThreshold(), limits, raft.getTickIntervalMs(),
                Duration.ofMillis(raft.getStartTimeoutMs()), null, null, properties.isJoin(),
                new RaftNodeSettings.LogRetention(raft.getSegmentSizeBytes(), raft.isPurgeUpToSnapshot()));
    }

    @Bean
    RaftMetrics raftMetrics() {
        return new RaftMetrics();
    }

    @Bean
    RaftNodeSettings raftNodeSettings(ReginaProperties properties) {
        return settings(properties);
    }

    @Bean
    BrokerStateMachine<BrokerState> brokerStateMachine(RaftNodeSettings settings, RaftMetrics metrics) {
        return BrokerStateMachine.forBrokerState(metrics, RaftNode.maxRequestBytes(settings.limits()));
    }

    /** Closed by {@link RaftNodeLifecycle}; {@code close} is idempotent, so the inferred destroy is harmless. */
    @Bean
    RaftNode raftNode(RaftNodeSettings settings, BrokerStateMachine<BrokerState> stateMachine, RaftMetrics metrics) {
        return new RaftNode(settings, stateMachine, metrics);
    }

    @Bean
    RaftNodeLifecycle raftNodeLifecycle(RaftNode node) {
        return new RaftNodeLifecycle(node);
    }

    @Bean
    CommandBus commandBus(RaftNode node, BrokerStateMachine<BrokerState> stateMachine) {
        return new RaftCommandBus(node, stateMachine);
    }

    @Bean
    MeterBinder raftMeters(RaftMetrics metrics, RaftNode node) {
        return registry -> {
            FunctionCounter.builder("regina.raft.entries", metrics, RaftMetrics::entriesSubmitted)
                    .description("Log entries this node submitted (one Raft append each)").register(registry);
            FunctionCounter.builder("regina.raft.commands", metrics, RaftMetrics::commandsSubmitted)
                    .description("Commands this node submitted, across its entries").register(registry);
            Gauge.builder("regina.raft.commands.per.entry", metrics, RaftMetrics::commandsPerEntry)
                    .description("Mean commands per submitted entry (group commit)").register(registry);
            Gauge.builder("regina.raft.commands.per.entry.max", metrics, RaftMetrics::maxCommandsPerEntry)
                    .description("Most commands one entry carried").register(registry);
            FunctionCounter.builder("regina.raft.entries.forwarded", metrics, RaftMetrics::entriesForwarded)
                    .description("Entries sent to a remote leader").register(registry);
            FunctionCounter.builder("regina.raft.entries.failed", metrics, RaftMetrics::entriesFailed)
                    .description("Entries whose submission failed").register(registry);
            FunctionCounter.builder("regina.raft.entries.applied", metrics, RaftMetrics::entriesApplied)
                    .description("Entries applied by this replica").register(registry);
            FunctionCounter.builder("regina.raft.apply.errors", metrics, RaftMetrics::applyErrors)
                    .description("Commands whose apply threw (domain bugs)").register(registry);
            FunctionTimer.builder("regina.raft.apply.latency", metrics, RaftMetrics::applyCount,
                            RaftMetrics::applyNanosTotal, TimeUnit.NANOSECONDS)
                    .description("Time to apply one entry to the state, under the write lock").register(registry);
            Gauge.builder("regina.raft.apply.latency.max", metrics, m -> m.applyNanosMax() / 1e9)
                    .baseUnit("seconds").register(registry);
            FunctionTimer.builder("regina.raft.commit.latency", metrics, RaftMetrics::commitCount,
                            RaftMetrics::commitNanosTotal, TimeUnit.NANOSECONDS)
                    .description("Submit-to-answer time of one entry: replicate, fsync, apply").register(registry);
            Gauge.builder("regina.raft.commit.latency.max", metrics, m -> m.commitNanosMax() / 1e9)
                    .baseUnit("seconds").register(registry);
            FunctionCounter.builder("regina.raft.snapshots", metrics, RaftMetrics::snapshotsTaken).register(registry);
            Gauge.builder("regina.raft.snapshot.bytes", metrics, RaftMetrics::lastSnapshotBytes)
                    .baseUnit("bytes").register(registry);
            FunctionCounter.builder("regina.raft.log.flushes", node, RaftNode::logFlushCount)
                    .description("Raft log fsyncs on this node (entries appended / flushes = entries per fsync)")
                    .register(registry);
            FunctionCounter.builder("regina.raft.log.appends", node, RaftNode::logAppendCount)
                    .description("Raft log entries appended on this node").register(registry);
            Gauge.builder("regina.raft.inflight.entries", node, n -> n.committer().inflightEntries()).register(registry);
            Gauge.builder("regina.raft.queued.commands", node, n -> n.committer().queuedCommands()).register(registry);
            Gauge.builder("regina.raft.pipeline.occupancy", node, n -> n.committer().occupancy())
                    .description("Share of the recent time (20 ms half-life) with a log entry in flight; above "
                            + "regina.raft.overlap-below-occupancy entries go one at a time").register(registry);
            Gauge.builder("regina.raft.leader", node, n -> n.isLeader() ? 1 : 0)
                    .description("1 while this node leads the group").register(registry);
            Gauge.builder("regina.raft.term", node, n -> n.status().term()).register(registry);
            Gauge.builder("regina.raft.commit.index", node, n -> n.status().commitIndex()).register(registry);
            Gauge.builder("regina.raft.applied.index", node, n -> n.status().appliedIndex()).register(registry);
        };
    }

    /** Runs the node with the application context. */
    static final class RaftNodeLifecycle implements SmartLifecycle {

        private final RaftNode node;
        private volatile boolean running;

        RaftNodeLifecycle(RaftNode node) {
            this.node = node;
        }

        @Override
        public void start() {
            try {
                node.start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the raft node: " + e.getMessage(), e);
            }
            running = true;
        }

        /** Graceful: lets entries in flight finish, then the server closes with a snapshot. */
        @Override
        public void stop() {
            running = false;
            node.close();
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return RAFT_PHASE;
        }

        /**
         * A stopped node is closed for good (a new one would have to be built), so a context that is paused
         * and restarted, as Spring's test context cache does with a context not in use, keeps it running.
         */
        @Override
        public boolean isPauseable() {
            return false;
        }

        ClusterStatus status() {
            return node.status();
        }
    }
}
