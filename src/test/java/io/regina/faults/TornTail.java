package io.regina.faults;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/**
 * What a power cut can leave of a node's Raft log: the newest segment ends part-way through its last
 * entry. Ratis preallocates segment files with zeros, so the written data ends at the last non-zero
 * byte; the cut goes a few bytes before it, inside the last entry (each is at least tens of bytes).
 */
final class TornTail {

    /** How much a tear cuts off: inside the last entry's checksum or body, never past the entry. */
    static final int BYTES = 4;

    private TornTail() {
    }

    /** Cuts {@code bytes} off the written end of the newest open segment under {@code dataDir}; returns the file. */
    static Path tear(Path dataDir, int bytes) throws IOException {
        Path segment = LogSegments.newestOpen(dataDir);
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            long end = writtenEnd(file);
            if (end <= bytes) {
                throw new IllegalStateException(segment + " holds only " + end + " written bytes");
            }
            file.setLength(end - bytes);
        }
        return segment;
    }

    private static long writtenEnd(RandomAccessFile file) throws IOException {
        byte[] block = new byte[64 * 1024];
        for (long blockEnd = file.length(); blockEnd > 0; blockEnd -= block.length) {
            long start = Math.max(0, blockEnd - block.length);
            int length = (int) (blockEnd - start);
            file.seek(start);
            file.readFully(block, 0, length);
            for (int i = length - 1; i >= 0; i--) {
                if (block[i] != 0) {
                    return start + i + 1;
                }
            }
        }
        return 0;
    }
}
