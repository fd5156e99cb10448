package io.regina.raft;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.junit.jupiter.api.Test;

/** The Ratis settings a node runs with: durability first, then the sizes that decide what stays on the heap. */
class RatisPropertiesTest {

    private static final Path DIR = Path.of("/tmp/regina-ratis-properties-test");

    @Test
    void everyAcknowledgedEntryIsFsyncedBeforeItCounts() {
        RaftProperties p = RatisProperties.server(RaftNodeSettings.singleNode(DIR, 6642));

        assertThat(RaftServerConfigKeys.Log.unsafeFlushEnabled(p)).isFalse();
        assertThat(RaftServerConfigKeys.Log.asyncFlushEnabled(p)).isFalse();
        assertThat(RaftServerConfigKeys.Log.StateMachineData.sync(p)).isTrue();
        assertThat(RaftServerConfigKeys.storageDir(p)).containsExactly(DIR.resolve("raft").toFile());
    }

    @Test
    void segmentsAreSmallAndSnapshotsFrequentSoEntriesDieYoung() {
        RaftNodeSettings defaults = RaftNodeSettings.singleNode(DIR, 6642);
        RaftProperties p = RatisProperties.server(defaults);

        assertThat(RaftServerConfigKeys.Log.segmentSizeMax(p)).isEqualTo(SizeInBytes.valueOf(256L << 10));
        assertThat(RaftServerConfigKeys.Log.segmentCacheNumMax(p)).isEqualTo(2);
        assertThat(RaftServerConfigKeys.Snapshot.autoTriggerThreshold(p)).isEqualTo(2_000L);
        assertThat(RaftServerConfigKeys.Snapshot.autoTriggerEnabled(p)).isTrue();
    }

    @Test
    void aConfiguredSegmentSizeReplacesTheDefault() {
        RaftNodeSettings settings = new RaftNodeSettings(RaftNodeSettings.DEFAULT_NODE_ID, List.of(), 6642, DIR,
                RaftNodeSettings.DEFAULT_SNAPSHOT_THRESHOLD, null, 1000, null, null, null, false,
                new RaftNodeSettings.LogRetention(4L << 20, false));

        assertThat(RaftServerConfigKeys.Log.segmentSizeMax(RatisProperties.server(settings)))
                .isEqualTo(SizeInBytes.valueOf(4L << 20));
    }
}
