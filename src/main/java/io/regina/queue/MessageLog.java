package io.regina.queue;

import java.util.Arrays;

/**
 * The ordered entries of one partition addressed by sequence number. Entries are appended at the
 * tail and removed only from the head (consumption, retention, eviction), so lookups stay O(1).
 *
 * <p>The entries are an array of its own from {@code start} to {@code end}, given up when the log empties:
 * a drained partition keeps no array, where a list kept its object and its ten slots (issue 8: a million
 * drained partitions are a million empty logs on the heap, marked by every concurrent cycle).
 */
final class MessageLog {
    private static final Message[] NONE = {};
    private static final int MIN_CAPACITY = 8;

    private Message[] entries = NONE;
    private int start;
    private int end;
    private long headSeq;
    private long nextSeq;

    MessageLog(long firstSeq) {
        this.headSeq = firstSeq;
        this.nextSeq = firstSeq;
    }

    long headSeq() {
        return headSeq;
    }

    /** The sequence number the next appended entry gets. */
    long tailSeq() {
        return nextSeq;
    }

    int size() {
        return end - start;
    }

    boolean isEmpty() {
        return end == start;
    }

    long takeSeq() {
        return nextSeq;
    }

    void append(Message message) {
        if (message.seq != nextSeq) {
            throw new IllegalStateException("append out of order: " + message.seq + " != " + nextSeq);
        }
        if (end == entries.length) {
            makeRoom();
        }
        entries[end++] = message;
        nextSeq++;
    }

    /** Moves the entries to the front when the removed head left half the array free, else doubles it. */
    private void makeRoom() {
        int size = end - start;
        if (start > 0 && size <= entries.length / 2) {
            System.arraycopy(entries, start, entries, 0, size);
            Arrays.fill(entries, size, end, null);
        } else {
            entries = Arrays.copyOfRange(entries, start, start + Math.max(MIN_CAPACITY, entries.length * 2));
        }
        start = 0;
        end = size;
    }

    /** The entry with this sequence number, or null when it was removed or not yet appended. */
    Message get(long seq) {
        if (seq < headSeq || seq >= nextSeq) {
            return null;
        }
        return entries[start + (int) (seq - headSeq)];
    }

    Message head() {
        return isEmpty() ? null : entries[start];
    }

    Message newest() {
        return isEmpty() ? null : entries[end - 1];
    }

    Message removeHead() {
        Message head = entries[start];
        entries[start++] = null;
        headSeq++;
        if (start == end) {
            entries = NONE;
            start = 0;
            end = 0;
        }
        return head;
    }

    /** The first sequence number whose entry was appended after {@code time}, or the tail. */
    long firstAppendedAfter(long time) {
        int low = start;
        int high = end;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (entries[mid].appendedAt <= time) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return headSeq + (low - start);
    }

    /** The entries from head to tail, a view for reading while the log does not change. */
    Iterable<Message> entries() {
        return Arrays.asList(entries).subList(start, end);
    }
}
