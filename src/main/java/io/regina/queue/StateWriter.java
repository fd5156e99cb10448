package io.regina.queue;

/** Where {@link BrokerState} writes its snapshot image; the {@code raft} codec frames and checks it. */
public interface StateWriter {
    void writeInt(int value);

    void writeLong(long value);

    void writeBoolean(boolean value);

    /** Writes a string that may be null. */
    void writeString(String value);
}
