package io.regina.worker.supervisor;

/**
 * One supervisor's place among the live supervisors of its queue and group: {@code rank} from 0 to
 * {@code members - 1}. Every member splits the group's target the same way, so the shares add up to it.
 */
record Membership(int rank, int members) {
    /** A supervisor that knows of no other. */
    static final Membership ALONE = new Membership(0, 1);

    Membership {
        if (members < 1 || rank < 0 || rank >= members) {
            throw new IllegalArgumentException("rank " + rank + " of " + members + " members");
        }
    }

    /** This member's part of {@code target}: an even split, the first {@code target % members} ranks one more. */
    int share(int target) {
        return target / members + (rank < target % members ? 1 : 0);
    }
}
