package io.regina.queue;

/**
 * The newest stored entry per transactionId, for acks and dedup: an open-addressing table of the entries
 * themselves (linear probing, deletion by shifting back), filed under {@link Message#transactionHash}. A
 * {@code HashMap<String, Message>} cost an entry object and a key string per stored message, both copied by
 * young collections while new; here a message costs one slot.
 */
final class TransactionIndex {
    private static final int MIN_CAPACITY = 8;
    private static final Message[] NONE = {};

    /** Given up when the index empties, as a drained partition's is: a million of them kept a million tables. */
    private Message[] slots = NONE;
    private int size;

    int size() {
        return size;
    }

    Message get(String transactionId) {
        if (size == 0 || transactionId == null) {
            return null;
        }
        int hash = Message.hashOf(transactionId);
        int mask = slots.length - 1;
        for (int i = hash & mask; slots[i] != null; i = (i + 1) & mask) {
            Message candidate = slots[i];
            if (candidate.transactionHash == hash && candidate.hasTransactionId(transactionId)) {
                return candidate;
            }
        }
        return null;
    }

    /** Files {@code message} under its transactionId, in place of an entry already there. */
    void put(Message message) {
        if ((size + 1) * 2 > slots.length) {
            resize(Math.max(MIN_CAPACITY, slots.length * 2));
        }
        int mask = slots.length - 1;
        int i = message.transactionHash & mask;
        for (; slots[i] != null; i = (i + 1) & mask) {
            if (slots[i].sameTransactionAs(message)) {
                slots[i] = message;
                return;
            }
        }
        slots[i] = message;
        size++;
    }

    /** Drops {@code message} when it is the entry filed under its transactionId; else changes nothing. */
    void remove(Message message) {
        if (size == 0) {
            return;
        }
        int mask = slots.length - 1;
        int i = message.transactionHash & mask;
        while (slots[i] != message) {
            if (slots[i] == null) {
                return;
            }
            i = (i + 1) & mask;
        }
        slots[i] = null;
        if (--size == 0) {
            slots = NONE;
            return;
        }
        // shift back the entries after the hole that would no longer be found past it
        for (int j = (i + 1) & mask; slots[j] != null; j = (j + 1) & mask) {
            int home = slots[j].transactionHash & mask;
            if (((j - home) & mask) >= ((j - i) & mask)) {
                slots[i] = slots[j];
                slots[j] = null;
                i = j;
            }
        }
        if (slots.length > MIN_CAPACITY && size * 8 < slots.length) {
            resize(slots.length / 2);
        }
    }

    private void resize(int capacity) {
        Message[] old = slots;
        slots = new Message[capacity];
        int mask = capacity - 1;
        for (Message message : old) {
            if (message != null) {
                int i = message.transactionHash & mask;
                while (slots[i] != null) {
                    i = (i + 1) & mask;
                }
                slots[i] = message;
            }
        }
    }
}
