package io.regina.queue;

/**
 * One entry of a partition's log. A released or retried job re-enters the log as a new entry
 * that only {@code onlyGroup} sees, carrying the deliveries already counted in {@code baseAttempts}.
 *
 * <p>A broker holds hundreds of thousands of these, each young collection copying the new ones, so an entry is
 * one object: its id as two longs when it is a canonical UUID (every id the broker makes), its transactionId
 * no field of its own when it is the id (a push that names none), its body in the {@link MessageStore}, and
 * the transaction indexes hold it without an entry object of their own ({@link TransactionIndex}).
 */
final class Message {
    final long seq;
    final Partition partition;
    private final long idHigh;
    private final long idLow;
    /** The id when it is not a canonical UUID, else null. */
    private final String idText;
    /** The transactionId when it is not the id, else null. */
    private final String transactionIdText;
    final int transactionHash;
    final String traceId;
    final String producerSub;
    final long bodyRef;
    final long createdAt;
    final long appendedAt;
    final String onlyGroup;
    final int baseAttempts;
    final String retryOf;

    Message(long seq, Partition partition, String id, String transactionId, String traceId, String producerSub,
            long bodyRef, long createdAt, long appendedAt, String onlyGroup, int baseAttempts, String retryOf) {
        this.seq = seq;
        this.partition = partition;
        boolean uuid = CanonicalUuid.is(id);
        long high = uuid ? CanonicalUuid.high(id) : 0;
        long low = uuid ? CanonicalUuid.low(id) : 0;
        // all-zero bits mean "no canonical id" (a null id, or the nil UUID kept as text)
        boolean canonical = high != 0 || low != 0;
        this.idHigh = high;
        this.idLow = low;
        this.idText = canonical ? null : id;
        boolean isId = transactionId == null ? id == null : transactionId.equals(id);
        this.transactionIdText = isId ? null : transactionId;
        this.transactionHash = isId && canonical ? CanonicalUuid.hash(idHigh, idLow) : hashOf(transactionId);
        this.traceId = traceId;
        this.producerSub = producerSub;
        this.bodyRef = bodyRef;
        this.createdAt = createdAt;
        this.appendedAt = appendedAt;
        this.onlyGroup = onlyGroup;
        this.baseAttempts = baseAttempts;
        this.retryOf = retryOf;
    }

    String id() {
        return hasCanonicalId() ? CanonicalUuid.format(idHigh, idLow) : idText;
    }

    String transactionId() {
        return transactionIdText != null ? transactionIdText : id();
    }

    /** The transactionId, given this message's {@link #id()} already formatted: no second copy of it. */
    String transactionId(String id) {
        return transactionIdText != null ? transactionIdText : id;
    }

    boolean visibleTo(String group) {
        return onlyGroup == null || onlyGroup.equals(group);
    }

    boolean hasId(String id) {
        if (!hasCanonicalId()) {
            return idText == null ? id == null : idText.equals(id);
        }
        return CanonicalUuid.is(id) && CanonicalUuid.high(id) == idHigh && CanonicalUuid.low(id) == idLow;
    }

    boolean hasTransactionId(String transactionId) {
        return transactionIdText != null ? transactionIdText.equals(transactionId) : hasId(transactionId);
    }

    boolean sameTransactionAs(Message other) {
        if (transactionHash != other.transactionHash) {
            return false;
        }
        if (transactionIdText != null) {
            return other.hasTransactionId(transactionIdText);
        }
        if (other.transactionIdText != null) {
            return hasTransactionId(other.transactionIdText);
        }
        return hasCanonicalId() && other.hasCanonicalId() ? idHigh == other.idHigh && idLow == other.idLow
                : hasTransactionId(other.id());
    }

    /** The hash {@link TransactionIndex} files a transactionId under: a canonical UUID's is that of its bits. */
    static int hashOf(String transactionId) {
        if (CanonicalUuid.is(transactionId)) {
            return CanonicalUuid.hash(CanonicalUuid.high(transactionId), CanonicalUuid.low(transactionId));
        }
        int h = transactionId == null ? 0 : transactionId.hashCode() * 0x9E3779B9;
        return h ^ h >>> 16;
    }

    private boolean hasCanonicalId() {
        return idHigh != 0 || idLow != 0;
    }
}
