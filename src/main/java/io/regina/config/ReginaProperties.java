package io.regina.config;

import io.regina.raft.RaftNodeSettings;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code regina.*} settings. With none set, the node is the embedded single-peer group with its
 * data in {@code ./data}.
 */
@ConfigurationProperties(prefix = "regina")
public class ReginaProperties {

    /** Root of the Raft log, snapshots and removed-groups directories. */
    private String dataDir = "./data";

    /** This node's id; defaults to {@code n1} when {@link #peers} is empty, required otherwise. */
    private String nodeId;

    /** The whole group as {@code id=host:raftPort,...}; empty for the embedded single node. */
    private String peers = "";

    /** The gRPC port of the embedded single node (with peers, each node's port comes from the list). */
    private int raftPort = 6642;

    /**
     * Start outside any group, listening on {@link #raftPort}, to be added to a running cluster by its
     * leader ({@code POST /api/v1/cluster/members}); needs {@link #nodeId} and no {@link #peers}.
     */
    private boolean join;

    private final Raft raft = new Raft();

    public String getDataDir() {
        return dataDir;
    }

    public void setDataDir(String dataDir) {
        this.dataDir = dataDir;
    }

    public String getNodeId() {
        return nodeId;
    }

    public void setNodeId(String nodeId) {
        this.nodeId = nodeId;
    }

    public String getPeers() {
        return peers;
    }

    public void setPeers(String peers) {
        this.peers = peers;
    }

    public int getRaftPort() {
        return raftPort;
    }

    public void setRaftPort(int raftPort) {
        this.raftPort = raftPort;
    }

    public boolean isJoin() {
        return join;
    }

    public void setJoin(boolean join) {
        this.join = join;
    }

    public Raft getRaft() {
        return raft;
    }

    /** {@code regina.raft.*}. */
    public static class Raft {

        /** Take a snapshot every this many applied log entries (once the log since the last holds an image's worth). */
        private long snapshotThreshold = RaftNodeSettings.DEFAULT_SNAPSHOT_THRESHOLD;

        /** Log entries the group committer keeps in flight before it queues commands for the next one. */
        private int maxInflightEntries = 2;

        /**
         * A further entry goes out beside those in flight only while each of them carries fewer commands than
         * this; under load the commands wait and travel together (fewer entries, less CPU per command).
         */
        private int overlapBelowCommands = 4;

        /**
         * A further entry goes out beside those in flight only while entries were in flight less than this share
         * of the recent time (a half-life of 20 ms); a busier log sends one entry at a time, each carrying what
         * queued meanwhile. Above 1 the rule is off.
         */
        private double overlapBelowOccupancy = 0.6;

        /** Most commands in one log entry. */
        private int maxCommandsPerEntry = 4096;

        /** Soft byte cap of one log entry (a single larger command still travels alone). */
        private int maxEntryBytes = 4 << 20;

        /** Hard cap of one encoded command; larger commands are refused. */
        private int maxCommandBytes = 8 << 20;

        /** The leader ticks this often while the state needs it (retention, a disk alarm); 0 disables ticks. */
        private long tickIntervalMs = 1000;

        /** How long startup waits for a Raft leader. */
        private long startTimeoutMs = 60_000;

        /** Roll a log segment past this many bytes; 0 for the default (256 KB). */
        private long segmentSizeBytes;

        /** Purge the log up to each snapshot even if a member still needs it (it installs the snapshot). */
        private boolean purgeUpToSnapshot;

        public long getSnapshotThreshold() {
            return snapshotThreshold;
        }

        public void setSnapshotThreshold(long snapshotThreshold) {
            this.snapshotThreshold = snapshotThreshold;
        }

        public int getMaxInflightEntries() {
            return maxInflightEntries;
        }

        public void setMaxInflightEntries(int maxInflightEntries) {
            this.maxInflightEntries = maxInflightEntries;
        }

        public int getOverlapBelowCommands() {
            return overlapBelowCommands;
        }

        public void setOverlapBelowCommands(int overlapBelowCommands) {
            this.overlapBelowCommands = overlapBelowCommands;
        }

        public double getOverlapBelowOccupancy() {
            return overlapBelowOccupancy;
        }

        public void setOverlapBelowOccupancy(double overlapBelowOccupancy) {
            this.overlapBelowOccupancy = overlapBelowOccupancy;
        }

        public int getMaxCommandsPerEntry() {
            return maxCommandsPerEntry;
        }

        public void setMaxCommandsPerEntry(int maxCommandsPerEntry) {
            this.maxCommandsPerEntry = maxCommandsPerEntry;
        }

        public int getMaxEntryBytes() {
            return maxEntryBytes;
        }

        public void setMaxEntryBytes(int maxEntryBytes) {
            this.maxEntryBytes = maxEntryBytes;
        }

        public int getMaxCommandBytes() {
            return maxCommandBytes;
        }

        public void setMaxCommandBytes(int maxCommandBytes) {
            this.maxCommandBytes = maxCommandBytes;
        }

        public long getTickIntervalMs() {
            return tickIntervalMs;
        }

        public void setTickIntervalMs(long tickIntervalMs) {
            this.tickIntervalMs = tickIntervalMs;
        }

        public long getStartTimeoutMs() {
            return startTimeoutMs;
        }

        public void setStartTimeoutMs(long startTimeoutMs) {
            this.startTimeoutMs = startTimeoutMs;
        }

        public long getSegmentSizeBytes() {
            return segmentSizeBytes;
        }

        public void setSegmentSizeBytes(long segmentSizeBytes) {
            this.segmentSizeBytes = segmentSizeBytes;
        }

        public boolean isPurgeUpToSnapshot() {
            return purgeUpToSnapshot;
        }

        public void setPurgeUpToSnapshot(boolean purgeUpToSnapshot) {
            this.purgeUpToSnapshot = purgeUpToSnapshot;
        }
    }
}
