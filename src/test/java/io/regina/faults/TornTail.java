package io.regina.faults;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a power cut can leave of a node's Raft log: the newest segment ends part-way through the
 * write that was in flight. An entry the node had fsynced and acknowledged survives a power cut on a
 * disk that honours fsync, so the tear never reaches one: it goes {@link #BYTES} bytes into the first
 * entry past {@code acknowledged} (and what followed it is gone), or, when every entry on disk was
 * acknowledged, it is a torn copy of a next entry appended after them. Cutting an acknowledged entry
 * would be a disk that lies about fsync, which no Raft implementation survives: the leader never
 * moves a follower's match index back, so that follower would be refused forever.
 *
 * <p>A segment is Ratis' {@code RaftLog1} header, then per entry a varint length, the entry, and a
 * 4-byte checksum; the entries of {@code log_inprogress_<first>} are {@code first, first + 1, ...};
 * preallocated space after them is zeros.
 */
final class TornTail {

    /** How much of the torn entry is missing: inside its checksum or body, never the whole entry. */
    private static final int BYTES = 4;

    private static final byte[] HEADER = "RaftLog1".getBytes(StandardCharsets.US_ASCII);
    private static final int CHECKSUM = 4;

    private TornTail() {
    }

    /** Where the write in flight was cut: the segment, the entry torn, and whether it was appended. */
    record Tear(Path segment, long tornIndex, boolean appended) {
        @Override
        public String toString() {
            return segment.getFileName() + (appended ? " +torn " : " cut ") + tornIndex;
        }
    }

    /**
     * Tears the newest open segment under {@code dataDir} of a stopped node that may have acknowledged
     * every entry up to {@code acknowledged} (and none past it).
     */
    static Tear tear(Path dataDir, long acknowledged) throws IOException {
        Path segment = LogSegments.newestOpen(dataDir);
        long first = LogSegments.firstIndexOf(segment);
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            byte[] bytes = new byte[Math.toIntExact(file.length())];
            file.readFully(bytes);
            List<int[]> entries = entries(bytes, segment);
            if (entries.isEmpty()) {
                throw new IllegalStateException(segment + " holds no entry to tear");
            }
            int firstUnacknowledged = (int) Math.max(0, Math.min(entries.size(), acknowledged + 1 - first));
            if (firstUnacknowledged < entries.size()) {
                int[] entry = entries.get(firstUnacknowledged);
                file.setLength(entry[0] + entry[1] - BYTES);
                return new Tear(segment, first + firstUnacknowledged, false);
            }
            int[] last = entries.get(entries.size() - 1);
            int end = last[0] + last[1];
            file.setLength(end);
            file.seek(end);
            file.write(Arrays.copyOfRange(bytes, last[0], end - BYTES));
            return new Tear(segment, first + entries.size(), true);
        }
    }

    /** Each entry's {offset, length} (varint, body and checksum), up to the zeros or the file's end. */
    private static List<int[]> entries(byte[] bytes, Path segment) {
        if (bytes.length < HEADER.length || !Arrays.equals(bytes, 0, HEADER.length, HEADER, 0, HEADER.length)) {
            throw new IllegalStateException(segment + " does not start with a Ratis log header");
        }
        List<int[]> entries = new ArrayList<>();
        int at = HEADER.length;
        while (at < bytes.length && bytes[at] != 0) {
            int length = 0;
            int shift = 0;
            int varint = 0;
            byte b;
            do {
                b = bytes[at + varint++];
                length |= (b & 0x7f) << shift;
                shift += 7;
            } while (b < 0);
            int total = varint + length + CHECKSUM;
            if (at + total > bytes.length) {
                throw new IllegalStateException(segment + " already ends inside an entry at byte " + at);
            }
            entries.add(new int[] {at, total});
            at += total;
        }
        return entries;
    }
}
