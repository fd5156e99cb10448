package io.regina.raft;

import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.server.storage.RaftStorageImpl;
import org.apache.ratis.server.storage.StorageImplUtils;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.util.MD5FileUtil;
import org.apache.ratis.util.SizeInBytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class SnapshotStorageTest {

    private static final SnapshotRetentionPolicy KEEP_TWO = new SnapshotRetentionPolicy() {
        @Override
        public int getNumSnapshotsRetained() {
            return 2;
        }
    };

    @TempDir
    Path dir;

    private RaftStorageImpl raftStorage;

    @AfterEach
    void close() throws IOException {
        if (raftStorage != null) {
            raftStorage.close();
        }
    }

    private SnapshotStorage open() throws IOException {
        if (raftStorage != null) {
            raftStorage.close();
        }
        raftStorage = StorageImplUtils.newRaftStorage(dir.toFile(), SizeInBytes.ONE_MB,
                RaftStorage.StartupOption.RECOVER, RaftServerConfigKeys.Log.CorruptionPolicy.EXCEPTION);
        raftStorage.initialize();
        SnapshotStorage storage = new SnapshotStorage();
        storage.init(raftStorage);
        return storage;
    }

    /** Writes a snapshot file with its MD5 beside it, as the state machine does, and records it. */
    private static void write(SnapshotStorage storage, long index) throws IOException {
        File file = storage.getSnapshotFile(1, index);
        Files.writeString(file.toPath(), "image " + index);
        var md5 = MD5FileUtil.computeAndSaveMd5ForFile(file);
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file.toPath(), md5),
                TermIndex.valueOf(1, index)));
    }

    /** The indexes of the snapshot files in the directory, ascending. */
    private static List<Long> snapshotsOnDisk(SnapshotStorage storage) throws IOException {
        File smDir = storage.getSnapshotFile(1, 0).getParentFile();
        try (Stream<Path> files = Files.list(smDir.toPath())) {
            return files.map(p -> p.getFileName().toString())
                    .filter(name -> name.matches("snapshot\\.1_\\d+"))
                    .map(name -> Long.parseLong(name.substring("snapshot.1_".length())))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void oldSnapshotsAreLookedForOnlyOnceANewerOneIsWritten() throws IOException {
        SnapshotStorage storage = open();
        write(storage, 10);
        write(storage, 20);
        write(storage, 30);
        storage.cleanupOldSnapshots(KEEP_TWO);
        assertThat(snapshotsOnDisk(storage)).containsExactly(20L, 30L);

        // a file the directory scan would delete, but no snapshot was written since the last cleanup:
        // Ratis calls after every applied batch while the state machine answers "none taken"
        write(storage, 5);
        for (int i = 0; i < 3; i++) {
            storage.cleanupOldSnapshots(KEEP_TWO);
        }
        assertThat(snapshotsOnDisk(storage)).as("no scan without a newer snapshot").containsExactly(5L, 20L, 30L);

        write(storage, 40);
        storage.cleanupOldSnapshots(KEEP_TWO);
        assertThat(snapshotsOnDisk(storage)).containsExactly(30L, 40L);
        assertThat(storage.getLatestSnapshot().getIndex()).isEqualTo(40);
    }

    @Test
    void aRestartCleansUpOnceAfterWhatTheLastRunLeft() throws IOException {
        SnapshotStorage first = open();
        write(first, 10);
        write(first, 20);
        write(first, 30);

        SnapshotStorage restarted = open();
        assertThat(restarted.getLatestSnapshot().getIndex()).isEqualTo(30);
        restarted.cleanupOldSnapshots(KEEP_TWO);
        assertThat(snapshotsOnDisk(restarted)).containsExactly(20L, 30L);
    }
}
