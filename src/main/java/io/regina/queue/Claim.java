package io.regina.queue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The part of a lease on one partition: the entries it delivered and which of them are resolved. */
final class Claim {
    final Lease lease;
    final Cursor cursor;
    final List<Long> seqs = new ArrayList<>();
    final Set<Long> resolved = new HashSet<>();

    Claim(Lease lease, Cursor cursor) {
        this.lease = lease;
        this.cursor = cursor;
    }

    boolean holds(long seq) {
        return seqs.contains(seq);
    }

    boolean allResolved() {
        return resolved.size() >= seqs.size();
    }
}
