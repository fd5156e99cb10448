package io.regina.queue;

import java.util.ArrayList;
import java.util.List;

/** A lease held by one pop: one claim per partition it took, one expiry for all of them. */
final class Lease {
    final String id;
    final String queue;
    final String group;
    long expiresAt;
    final List<Claim> claims = new ArrayList<>();

    Lease(String id, String queue, String group, long expiresAt) {
        this.id = id;
        this.queue = queue;
        this.group = group;
        this.expiresAt = expiresAt;
    }
}
