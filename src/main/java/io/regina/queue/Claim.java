package io.regina.queue;

import java.util.Arrays;

/**
 * The part of a lease on one partition: the entries it delivered and which of them are resolved. Every pop
 * makes one, so it is two arrays: as a list and a set of boxed sequence numbers it cost a pop about 270
 * bytes in seven objects, and each lookup boxed the number it looked for (issue 8).
 */
final class Claim {
    /** Up to this many entries are looked up one by one; more by binary search when they ascend. */
    private static final int SCANNED = 16;
    private static final long[] NONE = {};
    private static final boolean[] NONE_RESOLVED = {};

    final Lease lease;
    final Cursor cursor;
    /** The delivered entries in the order they were delivered; set once, by {@link #hold}. */
    private long[] seqs = NONE;
    /** Whether {@link #seqs} ascend, as a pop takes them (from the cursor on, in log order). */
    private boolean ascending = true;
    /** Whether each entry of {@link #seqs}, by position, is resolved. */
    private boolean[] resolved = NONE_RESOLVED;
    private int resolvedCount;

    Claim(Lease lease, Cursor cursor) {
        this.lease = lease;
        this.cursor = cursor;
    }

    /** Takes the first {@code count} of {@code delivered}, the entries delivered under this claim. */
    void hold(long[] delivered, int count) {
        long[] held = Arrays.copyOf(delivered, count);
        boolean up = true;
        for (int i = 1; i < held.length && up; i++) {
            up = held[i - 1] < held[i];
        }
        seqs = held;
        ascending = up;
        resolved = new boolean[held.length];
        resolvedCount = 0;
    }

    /** The delivered entries, in delivery order; the caller must not change the array. */
    long[] seqs() {
        return seqs;
    }

    boolean holds(long seq) {
        return indexOf(seq) >= 0;
    }

    boolean isResolved(long seq) {
        int i = indexOf(seq);
        return i >= 0 && resolved[i];
    }

    /** Marks a held entry resolved; one not held is ignored. */
    void resolve(long seq) {
        int i = indexOf(seq);
        if (i >= 0 && !resolved[i]) {
            resolved[i] = true;
            resolvedCount++;
        }
    }

    boolean allResolved() {
        return resolvedCount >= seqs.length;
    }

    int unresolvedCount() {
        return seqs.length - resolvedCount;
    }

    /** The resolved entries, ascending. */
    long[] resolvedSeqs() {
        long[] out = new long[resolvedCount];
        int n = 0;
        for (int i = 0; i < seqs.length; i++) {
            if (resolved[i]) {
                out[n++] = seqs[i];
            }
        }
        Arrays.sort(out);
        return out;
    }

    /** The position of {@code seq} in {@link #seqs}, or -1. */
    private int indexOf(long seq) {
        if (ascending && seqs.length > SCANNED) {
            int i = Arrays.binarySearch(seqs, seq);
            return i < 0 ? -1 : i;
        }
        for (int i = 0; i < seqs.length; i++) {
            if (seqs[i] == seq) {
                return i;
            }
        }
        return -1;
    }
}
