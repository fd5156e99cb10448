package io.regina.raft;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
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

    @Test
    void theLogsBuffersHoldTheLargestEntryAndNotMuchMore() {
        RaftNodeSettings defaults = RaftNodeSettings.singleNode(DIR, 6642);
        RaftProperties p = RatisProperties.server(defaults);
        long largestRequest = RaftNode.maxRequestBytes(defaults.limits());

        long appender = RaftServerConfigKeys.Log.Appender.bufferByteLimit(p).getSize();
        long writeBuffer = RaftServerConfigKeys.Log.writeBufferSize(p).getSize();
        // a request at the limit, with the leader's time stamp and the entry's fields, is sent and written whole
        assertThat(appender).isGreaterThanOrEqualTo(largestRequest + 1024);
        // Ratis' own rule: the length and checksum of an entry at the appender's limit fit beside it
        assertThat(writeBuffer).isGreaterThanOrEqualTo(appender + 8);
        // the write buffer is resident for the node's life: the largest entry, not a multiple of it
        assertThat(writeBuffer).isLessThan(largestRequest + (64L << 10));
        assertThat(GrpcConfigKeys.messageSizeMax(p, s -> { }).getSize()).isGreaterThanOrEqualTo(32L << 20);
    }
}
