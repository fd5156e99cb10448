package io.regina.raft;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.client.retry.RequestTypeDependentRetryPolicy;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.proto.RaftProtos;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.retry.RetryPolicy;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/** Ratis' settings for one node's server and its forwarding client; every value that matters for durability is set. */
final class RatisProperties {

    private RatisProperties() {
    }

    static Path storageDir(RaftNodeSettings settings) {
        return settings.dataDir().resolve("raft");
    }

    static RaftProperties server(RaftNodeSettings settings) {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        RaftNodeSettings.PeerAddress self = settings.self();
        GrpcConfigKeys.Server.setPort(p, self.port());
        if (settings.singleNode()) {
            GrpcConfigKeys.Server.setHost(p, self.host()); // the embedded node listens on loopback only
        }
        long entryBytes = largestEntryBytes(settings);
        // a limit, not a buffer: room for an append of entries up to the appender's limit, and for a snapshot
        // chunk (Ratis sends up to 16 MB a chunk)
        GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(Math.max(32L << 20, 2 * entryBytes)));

        RaftServerConfigKeys.setStorageDir(p, List.of(storageDir(settings).toFile()));
        RaftServerConfigKeys.setRemovedGroupsDir(p, settings.dataDir().resolve("raft-removed-groups").toFile());

        // durability: an entry counts towards the commit index only once it is fsynced (no unsafe flush).
        // The log worker fsyncs itself (no async flush): with group commit an entry rarely arrives during
        // the fsync of the one before, and the flush executor cost a thread hand-off per entry (issue 8).
        // No log-metadata entries: Ratis wrote one after every commit-index move, ~1.8 fsyncs per entry in
        // the paced lane; a restarted node learns the commit index from its leader (a single node: from the
        // entry it commits on election), so only how soon it applies its log tail changes, not what is kept.
        RaftServerConfigKeys.Log.setUnsafeFlushEnabled(p, false);
        RaftServerConfigKeys.Log.setAsyncFlushEnabled(p, false);
        RaftServerConfigKeys.Log.setLogMetadataEnabled(p, false);
        RaftServerConfigKeys.Log.StateMachineData.setSync(p, true);
        // Ratis keeps every entry of the open segment (and of the closed ones cached below) on the heap, and a
        // record of every entry (~300 B: index, term, offset) until its segment is purged after a snapshot. At 32
        // MB an entry lived tens of seconds and every young collection copied it again (session 11: 1 MB). At 1
        // MB, 1,000 jobs/s still left ~1 KB an entry living 2-5 s, most of the 4-5 MB each young collection
        // copied; 256 KB segments with a snapshot every 2,000 entries let it die before the next collection (mean
        // young pause 9.3-9.7 ms -> 5.4-6.4, docs/benchmarks.md session 28). An entry larger than a segment still
        // goes into the open one (Ratis writes it there whole).
        long segmentBytes = settings.log().segmentBytes();
        RaftServerConfigKeys.Log.setSegmentSizeMax(p,
                SizeInBytes.valueOf(segmentBytes > 0 ? segmentBytes : DEFAULT_SEGMENT_BYTES));
        RaftServerConfigKeys.Log.setPreallocatedSize(p, SizeInBytes.valueOf(4L << 20));
        // Ratis keeps up to 6 segments' entries on the heap by default (up to 200 MB): that live set made
        // every young collection copy more, and the broker's RSS grow past 500 MB. A follower that falls
        // further behind than two segments reads the entries it needs from disk. On a small heap the cache
        // is an eighth of it at most: at 64 MB, a 192 MB broker taking 3 MB pushes ran out of heap in Netty's
        // decoder (the connection closed without an answer) before the memory watermark could refuse them.
        RaftServerConfigKeys.Log.setSegmentCacheNumMax(p, 2);
        RaftServerConfigKeys.Log.setSegmentCacheSizeMax(p,
                SizeInBytes.valueOf(Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 8)));
        // An entry must fit in the appender's buffer (a bigger one is never sent to a follower) and the log
        // worker's write buffer (a bigger one stops the worker), which must hold the appender's limit and the
        // entry's length and checksum. The write buffer is direct memory zeroed when the log opens, so every
        // byte of it is resident: it was 17 MB, twice the largest entry, the largest single item of a loaded
        // broker's native memory (docs/benchmarks.md, session 31).
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, SizeInBytes.valueOf(entryBytes));
        RaftServerConfigKeys.Log.setWriteBufferSize(p, SizeInBytes.valueOf(entryBytes + ENTRY_FRAME_BYTES));
        RaftServerConfigKeys.Log.Appender.setRetryPolicy(p, APPENDER_RETRY_POLICY);

        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, settings.snapshotThreshold());
        RaftServerConfigKeys.Snapshot.setTriggerWhenStopEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
        // Ratis' default stops purging at the lowest commit index of any member, so one that is down
        // keeps the whole log since it left; purging up to the snapshot sends it the snapshot instead.
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, settings.log().purgeUpToSnapshot());

        // small CI VMs: GC or fsync pauses must not cause elections
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, duration(settings.rpcTimeoutMin().toMillis()));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, duration(settings.rpcTimeoutMax().toMillis()));
        RaftServerConfigKeys.Rpc.setRequestTimeout(p, duration(10_000));
        // The retry cache answers a client's retry of an entry it already applied; it must outlive every
        // retry (forwardingRetries bounds them), and no longer: Ratis' 60 s default kept a minute of replies
        // (payloads included) on the heap, the largest part of the broker's live set under load.
        RaftServerConfigKeys.RetryCache.setExpiryTime(p, duration(RETRY_CACHE_MS));
        if (settings.singleNode()) {
            RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMin(p, duration(50));
            RaftServerConfigKeys.Rpc.setFirstElectionTimeoutMax(p, duration(150));
        }
        return p;
    }

    /**
     * How long the leader's appender waits after each failed or refused append to a follower, by count
     * of errors since its last success. Ratis' default ("1ms,10, 1s,20, 5s,1000") waits 5 s from the 31st
     * error on, and a follower that was down a few seconds is past that. When it comes back with a tail
     * the leader does not have (an old leader's unreplicated entries), the leader finds where the logs
     * agree one entry per INCONSISTENCY reply, each an error: 5 s an entry kept a restarted old leader of
     * RollingRestartIT more than a minute behind. 100 ms at most still keeps a dead follower's retries
     * cheap (ten a second); the last count is large because past it Ratis retries without waiting.
     */
    static final String APPENDER_RETRY_POLICY = "1ms,10, 10ms,100, 100ms,1000000000";

    /**
     * The largest log entry this node may have to write or send: the largest client request (a command at its
     * limit, or a group of commands at theirs) with the leader's time stamp and the entry's own fields (term,
     * index, client and call ids) around it.
     */
    static long largestEntryBytes(RaftNodeSettings settings) {
        return RaftNode.maxRequestBytes(settings.limits()) + ENTRY_ENVELOPE_BYTES;
    }

    /** Room for an entry's fields beyond its request's bytes: tens of bytes, with a wide margin. */
    static final long ENTRY_ENVELOPE_BYTES = 4L << 10;
    /** What the log writes around an entry: its length (a varint of up to 5 bytes) and a 4-byte checksum. */
    static final long ENTRY_FRAME_BYTES = 16;

    /** A log segment's size unless {@code regina.raft.segment-size-bytes} says otherwise. */
    static final long DEFAULT_SEGMENT_BYTES = 256L << 10;

    /** How long a forwarded entry is retried at most (to a new leader, after a timeout), from its first send. */
    static final long FORWARD_RETRY_MS = 15_000;
    /** How long the leader remembers an applied entry's reply for a retry: beyond the last forward retry. */
    static final long RETRY_CACHE_MS = FORWARD_RETRY_MS + 5_000;

    /**
     * The forwarding client's retries: every 200 ms, for at most {@link #FORWARD_RETRY_MS} in all, so a
     * retry never reaches a leader that no longer remembers the first attempt (the retry cache) and so
     * is never applied twice. The caller has given up by then anyway ({@code GroupCommitter.COMMIT_TIMEOUT}).
     */
    static RetryPolicy forwardingRetries() {
        return RequestTypeDependentRetryPolicy.newBuilder()
                .setRetryPolicy(RaftProtos.RaftClientRequestProto.TypeCase.WRITE,
                        RetryPolicies.retryUpToMaximumCountWithFixedSleep(Integer.MAX_VALUE, duration(200)))
                .setTimeout(RaftProtos.RaftClientRequestProto.TypeCase.WRITE, duration(FORWARD_RETRY_MS))
                .build();
    }

    /** How long a forward waits for one answer before it is retried, possibly on another peer. */
    static final long FORWARD_REQUEST_TIMEOUT_MS = 3_000;

    static RaftProperties forwardingClient(RaftNodeSettings settings) {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        long maxEntry = RaftNode.maxRequestBytes(settings.limits());
        GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(Math.max(32L << 20, 4 * maxEntry)));
        // A leader that froze (SIGSTOP, a long GC or VM pause) keeps its connections open and answers
        // nothing: a forward to it waits out this timeout before the client tries another peer, which
        // names the new leader. At 10 s a follower's pushes stalled ~10 s past a 2-3 s election
        // (LeaderFreezeIT); a slow commit only costs a retry, which the retry cache answers once.
        RaftClientConfigKeys.Rpc.setRequestTimeout(p, duration(FORWARD_REQUEST_TIMEOUT_MS));
        return p;
    }

    /**
     * The membership client's retries, across a leader change: a change waits while the leader brings a
     * new member up to date, so each attempt may take {@link #ADMIN_REQUEST_MS}. A change is
     * compare-and-set, so a retry of one that was committed meanwhile is refused (the group no longer is
     * what it expected), never applied twice.
     */
    static RetryPolicy adminRetries() {
        return RetryPolicies.retryUpToMaximumCountWithFixedSleep(10, duration(500));
    }

    static final long ADMIN_REQUEST_MS = 30_000;

    static RaftProperties adminClient(RaftNodeSettings settings) {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
        RaftClientConfigKeys.Rpc.setRequestTimeout(p, duration(ADMIN_REQUEST_MS));
        return p;
    }

    static TimeDuration duration(long millis) {
        return TimeDuration.valueOf(millis, TimeUnit.MILLISECONDS);
    }
}
