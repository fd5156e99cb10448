package io.regina.raft;

import io.regina.queue.Command;
import io.regina.queue.Result;

import org.apache.ratis.thirdparty.com.google.protobuf.ByteOutput;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The framing and versions of everything that travels through the Raft log; {@link CommandCodec}
 * and {@link ResultCodec} write what is inside.
 *
 * <pre>
 * client request : u8 version, i32 count, count x command          (no time: the leader stamps it)
 * log entry      : u8 version, i64 now, i32 count, count x command  (now = leader's epoch millis)
 * entry reply    : u8 version, i32 count, count x result            (result i answers command i)
 * command        : u8 op code ({@link CommandOp}), then its fields in declaration order
 * result         : u8 op code ({@link ResultOp}, 0 = null), then its fields in declaration order
 * string         : u8 presence (0 null, 1 present), i32 length, UTF-8 bytes
 * list           : i32 count (-1 null), elements
 * nested record  : u8 presence (0 null, 1 present), fields
 * enum           : u8 stable code (0 null), see {@link EnumCode}
 * </pre>
 *
 * Integers are big-endian. Op codes and enum codes are stable: a new one is only ever appended.
 * A change in the layout of an existing command bumps {@link #VERSION}; the decoder must keep
 * reading every older version (the golden fixtures of each stay in {@code CodecGoldenTest}), and
 * a node refuses a version it does not know.
 */
public final class EntryCodec {

    /** The format version this node writes. */
    public static final int VERSION = 1;

    /** The one decoded log entry: the leader's time and the commands in order. */
    public record Entry(long now, List<Command> commands) { }

    private EntryCodec() {
    }

    /** Encodes one command (op code and fields, no version): the unit the group committer batches. */
    public static byte[] encodeCommand(Command command) {
        ByteSink out = ByteSink.scratch();
        CommandCodec.write(out, command);
        return out.toByteArray();
    }

    /** A client request made of commands already encoded with {@link #encodeCommand}, in one exact-size array. */
    public static byte[] encodeRequest(List<byte[]> encodedCommands) {
        long total = 5;
        for (byte[] c : encodedCommands) {
            total += c.length;
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new CodecException("request exceeds 2 GB");
        }
        ByteSink out = new ByteSink((int) total);
        out.writeByte(VERSION);
        out.writeInt(encodedCommands.size());
        for (byte[] c : encodedCommands) {
            out.writeBytes(c, 0, c.length);
        }
        return out.toByteArray();
    }

    /** A client request of the given commands. */
    public static byte[] encodeRequestOf(List<Command> commands) {
        List<byte[]> encoded = new ArrayList<>(commands.size());
        for (Command c : commands) {
            encoded.add(encodeCommand(c));
        }
        return encodeRequest(encoded);
    }

    /**
     * The bytes of {@code request} as a buffer to decode: a view of its array when it is one piece on the heap
     * (a request made on this node), so the payloads decoded from it are views too and are not copied before
     * the store copies them; else a read-only buffer, from which they are copied. A byte string over a
     * {@code byte[]} is immutable by protobuf's contract (made by copying, or by {@code unsafeWrap} of an array
     * its maker no longer changes, as {@link LeaderRouter} does); Ratis' zero-copy buffers are {@code ByteBuffer}s
     * and are read through the copy.
     */
    public static ByteBuffer bufferOf(ByteString request) {
        HeapPiece piece = new HeapPiece();
        try {
            UnsafeByteOperations.unsafeWriteTo(request, piece);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return piece.pieces == 1 && piece.array != null
                ? ByteBuffer.wrap(piece.array, piece.offset, piece.length) : request.asReadOnlyByteBuffer();
    }

    /** Notes the one heap array a byte string hands over, and how many pieces it handed. */
    private static final class HeapPiece extends ByteOutput {
        private byte[] array;
        private int offset;
        private int length;
        private int pieces;

        @Override
        public void write(byte value) {
            pieces++;
        }

        @Override
        public void write(byte[] value, int offset, int length) {
            pieces++;
        }

        @Override
        public void writeLazy(byte[] value, int offset, int length) {
            if (++pieces == 1) {
                this.array = value;
                this.offset = offset;
                this.length = length;
            }
        }

        @Override
        public void write(ByteBuffer value) {
            pieces++;
        }

        @Override
        public void writeLazy(ByteBuffer value) {
            pieces++;
        }
    }

    /** Decodes (and so validates) a client request. */
    public static List<Command> decodeRequest(ByteBuffer request) {
        ByteSource in = new ByteSource(request, "client request");
        checkVersion(in);
        List<Command> commands = readCommands(in);
        checkFullyRead(in);
        return commands;
    }

    /** A log entry: the leader's {@code now} and the commands in order. */
    public static byte[] encodeEntry(long now, List<Command> commands) {
        ByteSink out = ByteSink.scratch();
        out.writeByte(VERSION);
        out.writeLong(now);
        out.writeInt(commands.size());
        for (Command c : commands) {
            CommandCodec.write(out, c);
        }
        return out.toByteArray();
    }

    /**
     * The log entry for a request already validated by {@link #decodeRequest}: the time stamp, then the
     * request's command bytes, neither re-encoded nor copied (a rope over the request, which the log's
     * writer serialises piece by piece).
     */
    public static ByteString entryFromRequest(long now, ByteString request) {
        int version = request.isEmpty() ? -1 : request.byteAt(0) & 0xFF;
        if (version != VERSION) {
            throw new CodecException("client request has format version " + version
                    + "; this node reads only version " + VERSION);
        }
        byte[] header = new byte[1 + 8];
        ByteBuffer.wrap(header).put((byte) VERSION).putLong(now);
        return UnsafeByteOperations.unsafeWrap(header).concat(request.substring(1));
    }

    public static Entry decodeEntry(ByteBuffer entry) {
        ByteSource in = new ByteSource(entry, "log entry");
        checkVersion(in);
        long now = in.readLong();
        List<Command> commands = readCommands(in);
        checkFullyRead(in);
        return new Entry(now, commands);
    }

    public static byte[] encodeResults(List<Result> results) {
        ByteSink out = ByteSink.scratch();
        out.writeByte(VERSION);
        out.writeInt(results.size());
        for (Result r : results) {
            ResultCodec.write(out, r);
        }
        return out.toByteArray();
    }

    public static List<Result> decodeResults(ByteBuffer reply) {
        ByteSource in = new ByteSource(reply, "entry reply");
        checkVersion(in);
        int count = in.readCount("results", 1);
        List<Result> results = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            results.add(ResultCodec.read(in));
        }
        checkFullyRead(in);
        return results;
    }

    private static void checkVersion(ByteSource in) {
        if (in.remaining() == 0) {
            throw new CodecException(in.what() + " is empty: no format version byte");
        }
        int version = in.readByte();
        if (version != VERSION) {
            throw new CodecException(in.what() + " has unknown format version " + version
                    + "; this node reads only version " + VERSION
                    + " (was it written by a newer Regina? upgrade this node)");
        }
    }

    private static void checkFullyRead(ByteSource in) {
        if (in.remaining() != 0) {
            throw new CodecException(in.what() + " is corrupt: " + in.remaining()
                    + " unexpected trailing byte(s) at offset " + in.position());
        }
    }

    private static List<Command> readCommands(ByteSource in) {
        int count = in.readCount("commands", 1);
        List<Command> commands = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            commands.add(CommandCodec.read(in));
        }
        return commands;
    }
}
