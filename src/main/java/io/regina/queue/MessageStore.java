package io.regina.queue;

/**
 * Where message bodies live, so that a disk-backed store can later replace the in-memory one
 * without touching the domain. References are assigned by the store and are deterministic.
 */
public interface MessageStore {

    long put(String payload);

    /** Stores what {@code put(payload.toString())} stores, from the bytes as they are. */
    long put(Utf8Text payload);

    String get(long ref);

    void remove(long ref);

    /** Writes the body as {@code out.writeString(get(ref))} would, without a string in between. */
    void writeTo(long ref, StateWriter out);

    /** Bytes held, roughly, for memory accounting. */
    long bytes();

    long count();
}
