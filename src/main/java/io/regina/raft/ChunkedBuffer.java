package io.regina.raft;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Checksum;

/**
 * An in-memory output stream of 1 MB chunks: holds a state image of any size (beyond a byte
 * array's 2 GB) without large contiguous allocations or copies while it grows.
 */
final class ChunkedBuffer extends OutputStream {

    private static final int CHUNK = 1 << 20;

    private final List<byte[]> chunks = new ArrayList<>();
    private byte[] current;
    private int position;
    private long size;

    @Override
    public void write(int b) {
        if (current == null || position == current.length) {
            current = new byte[CHUNK];
            chunks.add(current);
            position = 0;
        }
        current[position++] = (byte) b;
        size++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        while (length > 0) {
            if (current == null || position == current.length) {
                current = new byte[CHUNK];
                chunks.add(current);
                position = 0;
            }
            int n = Math.min(length, current.length - position);
            System.arraycopy(bytes, offset, current, position, n);
            position += n;
            offset += n;
            length -= n;
            size += n;
        }
    }

    long size() {
        return size;
    }

    /** Writes the content to {@code out}, also feeding {@code checksum} when it is not null. */
    void writeTo(OutputStream out, Checksum checksum) throws java.io.IOException {
        for (int i = 0; i < chunks.size(); i++) {
            byte[] chunk = chunks.get(i);
            int length = i == chunks.size() - 1 ? position : chunk.length;
            out.write(chunk, 0, length);
            if (checksum != null) {
                checksum.update(chunk, 0, length);
            }
        }
    }
}
