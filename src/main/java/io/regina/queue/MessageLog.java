package io.regina.queue;

import java.util.ArrayList;
import java.util.List;

/**
 * The ordered entries of one partition addressed by sequence number. Entries are appended at the
 * tail and removed only from the head (consumption, retention, eviction), so lookups stay O(1).
 */
final class MessageLog {
    private final List<Message> entries = new ArrayList<>();
    private int start;
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
        return entries.size() - start;
    }

    boolean isEmpty() {
        return size() == 0;
    }

    long takeSeq() {
        return nextSeq;
    }

    void append(Message message) {
        if (message.seq != nextSeq) {
            throw new IllegalStateException("append out of order: " + message.seq + " != " + nextSeq);
        }
        entries.add(message);
        nextSeq++;
    }

    /** The entry with this sequence number, or null when it was removed or not yet appended. */
    Message get(long seq) {
        if (seq < headSeq || seq >= nextSeq) {
            return null;
        }
        return entries.get(start + (int) (seq - headSeq));
    }

    Message head() {
        return isEmpty() ? null : entries.get(start);
    }

    Message newest() {
        return isEmpty() ? null : entries.get(entries.size() - 1);
    }

    Message removeHead() {
        Message head = entries.get(start);
        entries.set(start, null);
        start++;
        headSeq++;
        if (start > 1024 && start > entries.size() / 2) {
            entries.subList(0, start).clear();
            start = 0;
        }
        return head;
    }

    /** The first sequence number whose entry was appended after {@code time}, or the tail. */
    long firstAppendedAfter(long time) {
        int low = start;
        int high = entries.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (entries.get(mid).appendedAt <= time) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return headSeq + (low - start);
    }

    Iterable<Message> entries() {
        return entries.subList(start, entries.size());
    }
}
