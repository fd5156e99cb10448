package io.regina.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.regina.queue.StateReader;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotCodecTest {

    @TempDir
    Path dir;

    static final List<String> STRINGS = List.of("a", "ünïcødé ✓ \uD83D\uDE80", "x".repeat(100_000));

    static void writeState(io.regina.queue.StateWriter out) {
        out.writeInt(STRINGS.size() + 1);
        for (String s : STRINGS) {
            out.writeString(s);
        }
        out.writeString(null);
        out.writeLong(Long.MIN_VALUE);
        out.writeBoolean(true);
    }

    static List<String> readState(StateReader in) {
        int n = in.readInt();
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            strings.add(in.readString());
        }
        assertThat(in.readLong()).isEqualTo(Long.MIN_VALUE);
        assertThat(in.readBoolean()).isTrue();
        return strings;
    }

    @Test
    void roundTrip() throws Exception {
        Path file = dir.resolve("snapshot.3_1200");
        SnapshotCodec.write(file, 3, 1200, 1_700_000_000_000L, SnapshotCodecTest::writeState);
        assertThat(dir.resolve("snapshot.3_1200.tmp")).doesNotExist();
        SnapshotCodec.Loaded<List<String>> loaded = SnapshotCodec.read(file, SnapshotCodecTest::readState);
        assertThat(loaded.term()).isEqualTo(3);
        assertThat(loaded.index()).isEqualTo(1200);
        assertThat(loaded.lastNow()).isEqualTo(1_700_000_000_000L);
        List<String> expected = new ArrayList<>(STRINGS);
        expected.add(null);
        assertThat(loaded.state()).isEqualTo(expected);
    }

    /** Values straddle the 1 MB chunks of the writer and the 64 KB window of the reader; one string spans chunks. */
    @Test
    void anImageOfManyChunksRoundTrips() throws Exception {
        Path file = dir.resolve("snapshot.2_9");
        String huge = "é".repeat(1_500_000) + "end";
        int rounds = 150_000;
        SnapshotCodec.write(file, 2, 9, 7, out -> {
            for (int i = 0; i < rounds; i++) {
                out.writeInt(i);
                out.writeLong(-i);
                out.writeBoolean(i % 3 == 0);
                out.writeString(i % 5 == 0 ? null : "s" + i);
            }
            out.writeString(huge);
        });
        assertThat(Files.size(file)).isGreaterThan(3L << 20);
        SnapshotCodec.Loaded<String> loaded = SnapshotCodec.read(file, in -> {
            for (int i = 0; i < rounds; i++) {
                assertThat(in.readInt()).isEqualTo(i);
                assertThat(in.readLong()).isEqualTo(-i);
                assertThat(in.readBoolean()).isEqualTo(i % 3 == 0);
                assertThat(in.readString()).isEqualTo(i % 5 == 0 ? null : "s" + i);
            }
            return in.readString();
        });
        assertThat(loaded.state()).isEqualTo(huge);
    }

    @Test
    void emptyStateRoundTrips() throws Exception {
        Path file = dir.resolve("snapshot.1_1");
        SnapshotCodec.write(file, 1, 1, Long.MIN_VALUE, out -> { });
        assertThat(SnapshotCodec.read(file, in -> "empty").state()).isEqualTo("empty");
    }

    @Test
    void flippedByteFailsTheCrcAndNamesTheFile() throws Exception {
        Path file = dir.resolve("snapshot.3_1200");
        SnapshotCodec.write(file, 3, 1200, 0, SnapshotCodecTest::writeState);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(SnapshotCodec.HEADER_BYTES + 20);
            int b = raf.read();
            raf.seek(SnapshotCodec.HEADER_BYTES + 20);
            raf.write(b ^ 0x40);
        }
        assertThatThrownBy(() -> SnapshotCodec.read(file, SnapshotCodecTest::readState))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("CRC32 mismatch");
    }

    @Test
    void truncatedFileNamesTheFile() throws Exception {
        Path file = dir.resolve("snapshot.3_1200");
        SnapshotCodec.write(file, 3, 1200, 0, SnapshotCodecTest::writeState);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() - 1000);
        }
        assertThatThrownBy(() -> SnapshotCodec.read(file, SnapshotCodecTest::readState))
                .hasMessageContaining(file.toString())
                .hasMessageContaining("truncated");
        Files.write(file, new byte[10]);
        assertThatThrownBy(() -> SnapshotCodec.read(file, SnapshotCodecTest::readState))
                .hasMessageContaining(file.toString())
                .hasMessageContaining("truncated");
    }

    @Test
    void unknownVersionAndBadMagicNameTheFile() throws Exception {
        Path file = dir.resolve("snapshot.3_1200");
        SnapshotCodec.write(file, 3, 1200, 0, SnapshotCodecTest::writeState);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(4);
            raf.write(7);
        }
        assertThatThrownBy(() -> SnapshotCodec.read(file, SnapshotCodecTest::readState))
                .isInstanceOf(CodecException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("unknown format version 7");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(0);
            raf.writeInt(0xCAFEBABE);
        }
        assertThatThrownBy(() -> SnapshotCodec.read(file, SnapshotCodecTest::readState))
                .hasMessageContaining(file.toString())
                .hasMessageContaining("not a Regina snapshot");
    }

    @Test
    void aReaderThatDisagreesWithTheWriterIsCaught() throws Exception {
        Path file = dir.resolve("snapshot.1_5");
        SnapshotCodec.write(file, 1, 5, 0, SnapshotCodecTest::writeState);
        assertThatThrownBy(() -> SnapshotCodec.read(file, in -> in.readInt()))
                .hasMessageContaining(file.toString())
                .hasMessageContaining("unread");
        assertThatThrownBy(() -> SnapshotCodec.read(file, in -> {
            for (int i = 0; i < 1000; i++) {
                in.readLong();
            }
            return null;
        })).hasMessageContaining(file.toString());
    }
}
