package io.regina.queue;

/** Reads back what a {@link StateWriter} wrote, in the same order. */
public interface StateReader {
    int readInt();

    long readLong();

    boolean readBoolean();

    String readString();
}
