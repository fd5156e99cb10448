package io.regina.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class TornTailTest {

    private static final int[] BODIES = {20, 200, 31};

    @TempDir
    Path dataDir;

    /** A segment starting at index 7 holding three entries, then preallocated zeros. */
    private Path segment() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write("RaftLog1".getBytes(StandardCharsets.US_ASCII));
        for (int body : BODIES) {
            out.write(entry(body));
        }
        out.write(new byte[4096]);
        Path file = dataDir.resolve("raft/group/current/log_inprogress_7");
        Files.createDirectories(file.getParent());
        Files.write(file, out.toByteArray());
        return file;
    }

    private static byte[] entry(int body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int v = body; ; v >>>= 7) {
            if (v < 0x80) {
                out.write(v);
                break;
            }
            out.write((v & 0x7f) | 0x80);
        }
        byte[] filled = new byte[body + 4];
        Arrays.fill(filled, (byte) 0x5a);
        out.writeBytes(filled);
        return out.toByteArray();
    }

    private static int end(int entries) {
        int end = 8;
        for (int i = 0; i < entries; i++) {
            end += entry(BODIES[i]).length;
        }
        return end;
    }

    @Test
    void cutsIntoTheFirstEntryPastTheAcknowledgedOneAndDropsWhatFollowed() throws IOException {
        Path file = segment();

        TornTail.Tear tear = TornTail.tear(dataDir, 7);

        assertThat(tear.tornIndex()).isEqualTo(8);
        assertThat(tear.appended()).isFalse();
        assertThat(Files.size(file)).isEqualTo(end(2) - 4);
    }

    @Test
    void appendsATornNextEntryWhenEveryEntryWasAcknowledged() throws IOException {
        Path file = segment();
        byte[] before = Arrays.copyOf(Files.readAllBytes(file), end(3));

        TornTail.Tear tear = TornTail.tear(dataDir, 9);

        byte[] after = Files.readAllBytes(file);
        assertThat(tear.tornIndex()).isEqualTo(10);
        assertThat(tear.appended()).isTrue();
        assertThat(Arrays.copyOf(after, end(3))).as("every acknowledged entry is intact").isEqualTo(before);
        assertThat(after).hasSize(end(3) + entry(BODIES[2]).length - 4);
    }

    @Test
    void cutsTheFirstEntryWhenTheNodeHadAcknowledgedNoneOfTheSegment() throws IOException {
        Path file = segment();

        TornTail.Tear tear = TornTail.tear(dataDir, 3);

        assertThat(tear.tornIndex()).isEqualTo(7);
        assertThat(Files.size(file)).isEqualTo(end(1) - 4);
    }
}
