package io.regina.queue;

/** Reads back what a {@link StateWriter} wrote, in the same order. */
public interface StateReader {
    int readInt();

    long readLong();

    boolean readBoolean();

    String readString();

    /** Reads what {@link #readString} reads, as its UTF-8 bytes: a reader of a UTF-8 format copies them as they are. */
    default Utf8Text readUtf8Text() {
        return Utf8Text.of(readString());
    }
}
