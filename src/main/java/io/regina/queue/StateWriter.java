package io.regina.queue;

import java.nio.charset.StandardCharsets;

/** Where {@link BrokerState} writes its snapshot image; the {@code raft} codec frames and checks it. */
public interface StateWriter {
    void writeInt(int value);

    void writeLong(long value);

    void writeBoolean(boolean value);

    /** Writes a string that may be null. */
    void writeString(String value);

    /**
     * Writes what {@link #writeString} writes for the string these UTF-8 bytes encode; a writer whose format
     * is UTF-8 copies them as they are.
     */
    default void writeUtf8(byte[] utf8, int offset, int length) {
        writeString(new String(utf8, offset, length, StandardCharsets.UTF_8));
    }
}
