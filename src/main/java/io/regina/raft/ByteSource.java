package io.regina.raft;

import io.regina.queue.StateReader;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads what a {@link ByteSink} wrote. Every read is bounds-checked: running past the end or
 * meeting an impossible length throws a {@link CodecException} naming {@code what} was read.
 */
final class ByteSource implements StateReader {

    private final ByteBuffer in;
    private final String what;

    ByteSource(ByteBuffer in, String what) {
        this.in = in.slice();
        this.what = what;
    }

    private void need(int bytes, String field) {
        if (bytes < 0 || in.remaining() < bytes) {
            throw new CodecException(what + " is truncated: reading " + field + " needs " + bytes
                    + " byte(s) at offset " + in.position() + ", " + in.remaining() + " left");
        }
    }

    int readByte() {
        need(1, "a byte");
        return in.get() & 0xFF;
    }

    @Override
    public int readInt() {
        need(4, "an int");
        return in.getInt();
    }

    @Override
    public long readLong() {
        need(8, "a long");
        return in.getLong();
    }

    @Override
    public boolean readBoolean() {
        int b = readByte();
        if (b > 1) {
            throw new CodecException(what + " is corrupt: boolean byte " + b + " at offset " + (in.position() - 1));
        }
        return b == 1;
    }

    @Override
    public String readString() {
        int flag = readByte();
        if (flag == 0) {
            return null;
        }
        if (flag != 1) {
            throw new CodecException(what + " is corrupt: string presence flag " + flag + " at offset "
                    + (in.position() - 1));
        }
        int length = readInt();
        need(length, "a string of " + length + " bytes");
        ByteBuffer bytes = in.slice();
        bytes.limit(length);
        in.position(in.position() + length);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw new CodecException(what + " is corrupt: invalid UTF-8 in a string", e);
        }
    }

    /** Reads a count of elements that each take at least {@code minBytesEach}; refuses impossible counts. */
    int readCount(String field, int minBytesEach) {
        int count = readInt();
        if (count < 0 || (long) count * Math.max(1, minBytesEach) > in.remaining()) {
            throw new CodecException(what + " is corrupt: " + field + " count " + count + " with "
                    + in.remaining() + " byte(s) left");
        }
        return count;
    }

    int position() {
        return in.position();
    }

    int remaining() {
        return in.remaining();
    }

    /** The unread rest, without consuming it. */
    ByteBuffer rest() {
        return in.slice();
    }

    String what() {
        return what;
    }
}
