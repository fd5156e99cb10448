package io.regina.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.regina.queue.Command;
import io.regina.queue.CommandBus;
import io.regina.queue.Result;
import io.regina.raft.RaftCommandBus;
import io.regina.raft.RaftNode;
import io.regina.raft.RaftNodeSettings;

import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RaftConfigurationTest {

    @TempDir
    Path dir;

    static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * The packaged application.properties lists the Raft keys for operators to see; a value there that differs from
     * the code's default silently wins over it (session 28 measured a jar whose 2,000-entry default the file still
     * set to 10,000).
     */
    @Test
    void packagedPropertiesRepeatTheCodeDefaultsOfTheRaftKeys() throws Exception {
        Properties packaged = new Properties();
        try (InputStream in = RaftConfigurationTest.class.getResourceAsStream("/application.properties")) {
            packaged.load(in);
        }
        ReginaProperties.Raft defaults = new ReginaProperties().getRaft();

        assertThat(packaged.getProperty("regina.raft.snapshot-threshold"))
                .isEqualTo(String.valueOf(defaults.getSnapshotThreshold()));
        assertThat(packaged.getProperty("regina.raft.max-inflight-entries"))
                .isEqualTo(String.valueOf(defaults.getMaxInflightEntries()));
        assertThat(packaged.getProperty("regina.raft.overlap-below-commands"))
                .isEqualTo(String.valueOf(defaults.getOverlapBelowCommands()));
        assertThat(Double.parseDouble(packaged.getProperty("regina.raft.overlap-below-occupancy")))
                .isEqualTo(defaults.getOverlapBelowOccupancy());
        assertThat(packaged.getProperty("regina.raft.tick-interval-ms"))
                .isEqualTo(String.valueOf(defaults.getTickIntervalMs()));
    }

    @Test
    void propertiesBindToSettingsWithDefaults() {
        ReginaProperties properties = new ReginaProperties();
        RaftNodeSettings settings = RaftConfiguration.settings(properties);
        assertThat(settings.nodeId()).isEqualTo("n1");
        assertThat(settings.raftPort()).isEqualTo(6642);
        assertThat(settings.singleNode()).isTrue();
        assertThat(settings.snapshotThreshold()).isEqualTo(2_000);
        assertThat(settings.limits().maxInflightEntries()).isEqualTo(2);
        assertThat(settings.tickIntervalMs()).isEqualTo(1000);
        assertThat(settings.dataDir()).isEqualTo(Path.of("./data").toAbsolutePath().normalize());
        assertThat(settings.log()).isEqualTo(RaftNodeSettings.LogRetention.defaults());
        properties.getRaft().setSegmentSizeBytes(1 << 20);
        properties.getRaft().setPurgeUpToSnapshot(true);
        assertThat(RaftConfiguration.settings(properties).log())
                .isEqualTo(new RaftNodeSettings.LogRetention(1 << 20, true));

        properties.setNodeId("b");
        properties.setPeers("a=10.0.0.1:6642, b=10.0.0.2:6642,c=host-c:7000");
        RaftNodeSettings cluster = RaftConfiguration.settings(properties);
        assertThat(cluster.singleNode()).isFalse();
        assertThat(cluster.self()).isEqualTo(new RaftNodeSettings.PeerAddress("b", "10.0.0.2", 6642));
        assertThat(cluster.peers()).hasSize(3);
    }

    @Test
    void contextStartsTheNodeExposesTheBusAndTheMeters() throws Exception {
        int port = freePort();
        new ApplicationContextRunner()
                .withUserConfiguration(RaftConfiguration.class)
                .withPropertyValues("regina.data-dir=" + dir, "regina.raft-port=" + port,
                        "regina.raft.tick-interval-ms=0", "regina.raft.snapshot-threshold=50")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    RaftNode node = context.getBean(RaftNode.class);
                    assertThat(node.isLeader()).isTrue();
                    CommandBus bus = context.getBean(CommandBus.class);
                    assertThat(bus).isInstanceOf(RaftCommandBus.class);
                    // the skeleton BrokerState throws "not yet": the state machine answers a rejection
                    // (once the real BrokerState lands this is a Ticked)
                    Result result = bus.submit(new Command.Tick()).get(30, TimeUnit.SECONDS);
                    assertThat(result).isInstanceOfAny(Result.Ticked.class, Result.Rejected.class);
                    Boolean present = bus.read(state -> state != null);
                    assertThat(present).isTrue();

                    SimpleMeterRegistry registry = new SimpleMeterRegistry();
                    context.getBean(MeterBinder.class).bindTo(registry);
                    assertThat(registry.get("regina.raft.entries").functionCounter().count()).isGreaterThanOrEqualTo(1);
                    assertThat(registry.get("regina.raft.commands").functionCounter().count()).isGreaterThanOrEqualTo(1);
                    assertThat(registry.get("regina.raft.commands.per.entry").gauge().value()).isGreaterThan(0);
                    FunctionTimer apply = registry.get("regina.raft.apply.latency").functionTimer();
                    assertThat(apply.count()).isGreaterThanOrEqualTo(1);
                    assertThat(registry.get("regina.raft.log.flushes").functionCounter().count()).isGreaterThan(0);
                    assertThat(registry.get("regina.raft.log.appends").functionCounter().count()).isGreaterThan(0);
                    assertThat(registry.get("regina.raft.leader").gauge().value()).isEqualTo(1);
                });
        // the context closed: the node stopped and took a snapshot on the way out
        try (var files = Files.walk(dir)) {
            assertThat(files.anyMatch(p -> p.getFileName().toString().matches("snapshot\\.\\d+_\\d+"))).isTrue();
        }
    }
}
