package io.regina.queue;

import java.util.HashMap;
import java.util.Map;

/** Keeps message bodies on the heap; they reach disk through snapshots and the Raft log. */
public final class InMemoryMessageStore implements MessageStore {

    private final Map<Long, String> bodies = new HashMap<>();
    private long nextRef = 1;
    private long bytes;

    @Override
    public long put(String payload) {
        long ref = nextRef++;
        bodies.put(ref, payload);
        bytes += sizeOf(payload);
        return ref;
    }

    @Override
    public String get(long ref) {
        return bodies.get(ref);
    }

    @Override
    public void remove(long ref) {
        String removed = bodies.remove(ref);
        if (removed != null) {
            bytes -= sizeOf(removed);
        }
    }

    @Override
    public long bytes() {
        return bytes;
    }

    @Override
    public long count() {
        return bodies.size();
    }

    private static long sizeOf(String payload) {
        return payload == null ? 16 : 40L + payload.length();
    }
}
