package io.regina.queue;

import java.util.function.IntPredicate;

/**
 * The words of the failed-jobs index that occur in one row: a word's 64-bit hash and the row's number
 * in an open-addressing table of two primitive arrays (linear probing, 12 bytes a slot), where a map
 * entry, a string and a posting list would cost ~140 bytes a word. Most words of a row that carries an
 * id are such words. A hash only probably names a word: {@link FailedJobIndex} checks every row found
 * under a hash against that row's words, and a word whose hash is already filed for another word gets
 * an entry of its own, so a collision neither finds a wrong row nor hides a right one. Entries are
 * filed and removed in the order of the applied commands, so the table is the same on every node.
 */
final class FailedJobOneRowWords {

    private static final int MIN_CAPACITY = 16;

    private long[] hashes = new long[MIN_CAPACITY];
    /** Row number + 1 of each slot; 0 is an empty slot. */
    private int[] rows = new int[MIN_CAPACITY];
    private int size;

    /** A word's hash: FNV-1a over its characters, then MurmurHash3's finalizer to spread the low bits. */
    static long hash(String word) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < word.length(); i++) {
            h = (h ^ word.charAt(i)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        return h ^ (h >>> 33);
    }

    /** The first row filed under the hash that passes the test, in probe order; -1 when none does. */
    int find(long hash, IntPredicate test) {
        int mask = rows.length - 1;
        for (int i = slot(hash, mask); rows[i] != 0; i = (i + 1) & mask) {
            if (hashes[i] == hash && test.test(rows[i] - 1)) {
                return rows[i] - 1;
            }
        }
        return -1;
    }

    void add(long hash, int row) {
        if ((size + 1) * 4L > rows.length * 3L) {
            resize(rows.length * 2);
        }
        put(hash, row);
        size++;
    }

    /** Removes the entry of this hash and row; the entries after it in its run shift back, so no probe breaks. */
    void remove(long hash, int row) {
        int mask = rows.length - 1;
        int gap = slot(hash, mask);
        while (hashes[gap] != hash || rows[gap] != row + 1) {
            if (rows[gap] == 0) {
                throw new IllegalStateException("no one-row word entry for row " + row);
            }
            gap = (gap + 1) & mask;
        }
        for (int j = (gap + 1) & mask; rows[j] != 0; j = (j + 1) & mask) {
            // An entry may fill the gap when the gap lies between its home slot and where it is.
            if (((j - slot(hashes[j], mask)) & mask) >= ((j - gap) & mask)) {
                hashes[gap] = hashes[j];
                rows[gap] = rows[j];
                gap = j;
            }
        }
        hashes[gap] = 0;
        rows[gap] = 0;
        size--;
        if (rows.length > MIN_CAPACITY && size * 8L < rows.length) {
            resize(rows.length / 2);
        }
    }

    int size() {
        return size;
    }

    void clear() {
        hashes = new long[MIN_CAPACITY];
        rows = new int[MIN_CAPACITY];
        size = 0;
    }

    /** The heap of the two arrays. */
    long bytes() {
        return 2 * 16 + 12L * rows.length;
    }

    private void put(long hash, int row) {
        int mask = rows.length - 1;
        int i = slot(hash, mask);
        while (rows[i] != 0) {
            i = (i + 1) & mask;
        }
        hashes[i] = hash;
        rows[i] = row + 1;
    }

    private void resize(int capacity) {
        long[] oldHashes = hashes;
        int[] oldRows = rows;
        hashes = new long[capacity];
        rows = new int[capacity];
        for (int i = 0; i < oldRows.length; i++) {
            if (oldRows[i] != 0) {
                put(oldHashes[i], oldRows[i] - 1);
            }
        }
    }

    private static int slot(long hash, int mask) {
        return (int) hash & mask;
    }
}
