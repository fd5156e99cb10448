package io.regina.raft;

import io.regina.queue.StateReader;
import io.regina.queue.StateWriter;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.zip.CRC32;

/**
 * The snapshot file format.
 *
 * <pre>
 * i32 magic "RGSN" | u8 version | i64 term | i64 index | i64 lastNow | i64 state length
 * | state bytes ({@code BrokerState.writeTo}) | i32 CRC32 of every byte before it
 * </pre>
 *
 * {@code lastNow} is the monotonic clock of the state machine (the largest entry time applied),
 * so replicas that load the snapshot keep clamping time exactly as the ones that did not.
 * Files are written to a temp file, fsynced, renamed into place and the directory fsynced.
 * Every failure to load names the file.
 */
public final class SnapshotCodec {

    public static final int MAGIC = 0x5247534E; // "RGSN"
    public static final int VERSION = 1;
    static final int HEADER_BYTES = 4 + 1 + 8 + 8 + 8 + 8;
    static final int TRAILER_BYTES = 4;

    /** A loaded snapshot. */
    public record Loaded<S>(long term, long index, long lastNow, S state) { }

    private SnapshotCodec() {
    }

    /** Serialises a state into memory (call under the state's read lock; no I/O happens). */
    static ByteSink capture(Consumer<StateWriter> writer) {
        ByteSink image = ByteSink.chunked();
        writer.accept(image);
        return image;
    }

    /** Writes a complete snapshot file at {@code target} atomically (temp file, fsync, rename, fsync dir). */
    public static void write(Path target, long term, long index, long lastNow, Consumer<StateWriter> writer)
            throws IOException {
        write(target, term, index, lastNow, capture(writer));
    }

    static void write(Path target, long term, long index, long lastNow, ByteSink state) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = dir.resolve(target.getFileName() + ".tmp");
        CRC32 crc = new CRC32();
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            OutputStream raw = Channels.newOutputStream(channel);
            BufferedOutputStream buffered = new BufferedOutputStream(raw, 1 << 16);
            DataOutputStream header = new DataOutputStream(new CheckedOut(buffered, crc));
            header.writeInt(MAGIC);
            header.writeByte(VERSION);
            header.writeLong(term);
            header.writeLong(index);
            header.writeLong(lastNow);
            header.writeLong(state.size());
            header.flush();
            state.writeTo(buffered, crc);
            DataOutputStream trailer = new DataOutputStream(buffered);
            trailer.writeInt((int) crc.getValue());
            trailer.flush();
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw new IOException("cannot write snapshot " + target + ": " + e.getMessage(), e);
        }
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        fsyncDirectory(dir);
    }

    private static void fsyncDirectory(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // some platforms cannot open or force a directory; the file itself is already forced
        }
    }

    /** Reads only the header (term, index, lastNow) after checking magic and version. */
    public static Loaded<Void> readHeader(Path file) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            long size = Files.size(file);
            if (size < HEADER_BYTES + TRAILER_BYTES) {
                throw new CodecException("snapshot " + file + " is truncated: " + size + " bytes, a snapshot has at least "
                        + (HEADER_BYTES + TRAILER_BYTES));
            }
            return readHeader(in, file, size);
        }
    }

    private static Loaded<Void> readHeader(DataInputStream in, Path file, long size) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new CodecException("snapshot " + file + " is not a Regina snapshot (magic 0x"
                    + Integer.toHexString(magic) + ")");
        }
        int version = in.readUnsignedByte();
        if (version != VERSION) {
            throw new CodecException("snapshot " + file + " has unknown format version " + version
                    + "; this node reads only version " + VERSION + " (was it written by a newer Regina?)");
        }
        long term = in.readLong();
        long index = in.readLong();
        long lastNow = in.readLong();
        long stateLength = in.readLong();
        long expected = size - HEADER_BYTES - TRAILER_BYTES;
        if (stateLength != expected) {
            throw new CodecException("snapshot " + file + " is truncated or corrupt: header says " + stateLength
                    + " state bytes, the file holds " + expected);
        }
        return new Loaded<>(term, index, lastNow, null);
    }

    /**
     * Loads a snapshot: checks magic, version, length and CRC, then hands the state section to
     * {@code reader}. Any failure throws a {@link CodecException} (or an IOException) naming the file.
     */
    public static <S> Loaded<S> read(Path file, Function<StateReader, S> reader) throws IOException {
        try {
            long size = Files.size(file);
            if (size < HEADER_BYTES + TRAILER_BYTES) {
                throw new CodecException("snapshot " + file + " is truncated: " + size
                        + " bytes, a snapshot has at least " + (HEADER_BYTES + TRAILER_BYTES));
            }
            Loaded<Void> header = readHeader(file);
            verifyCrc(file, size);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                channel.position(HEADER_BYTES);
                long stateLength = size - HEADER_BYTES - TRAILER_BYTES;
                ByteSource stateReader = new ByteSource(channel, stateLength, "snapshot " + file);
                S state = reader.apply(stateReader);
                if (stateReader.remaining() != 0) {
                    throw new CodecException("snapshot " + file + ": the state reader left " + stateReader.remaining()
                            + " of " + stateLength + " state bytes unread (writeTo and readFrom disagree)");
                }
                return new Loaded<>(header.term(), header.index(), header.lastNow(), state);
            }
        } catch (CodecException e) {
            throw e;
        } catch (IOException e) {
            throw new IOException("cannot read snapshot " + file + ": " + e, e);
        } catch (RuntimeException e) {
            throw new CodecException("cannot load snapshot " + file + ": " + e, e);
        }
    }

    private static void verifyCrc(Path file, long size) throws IOException {
        CRC32 crc = new CRC32();
        long body = size - TRAILER_BYTES;
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            long left = body;
            while (left > 0) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new CodecException("snapshot " + file + " is truncated: end of file before the checksum");
                }
                crc.update(buffer, 0, n);
                left -= n;
            }
            int stored = new DataInputStream(in).readInt();
            if (stored != (int) crc.getValue()) {
                throw new CodecException("snapshot " + file + " is corrupt: CRC32 mismatch (stored 0x"
                        + Integer.toHexString(stored) + ", computed 0x" + Long.toHexString(crc.getValue()) + ")");
            }
        }
    }

    /** An output stream that feeds a CRC with what passes through it. */
    private static final class CheckedOut extends OutputStream {
        private final OutputStream out;
        private final CRC32 crc;

        CheckedOut(OutputStream out, CRC32 crc) {
            this.out = out;
            this.crc = crc;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            crc.update(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            crc.update(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }
    }
}
