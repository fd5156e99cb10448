package io.regina.queue;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/** A claim knows which entries it holds and which of them are resolved, whatever its size. */
class ClaimTest {

    @Test
    void aSingleEntryClaimIsResolvedByItsOneAck() {
        Claim claim = claimOf(List.of(42L));

        assertThat(claim.holds(42)).isTrue();
        assertThat(claim.holds(43)).isFalse();
        assertThat(claim.allResolved()).isFalse();
        claim.resolve(42);
        assertThat(claim.isResolved(42)).isTrue();
        assertThat(claim.allResolved()).isTrue();
        assertThat(claim.unresolvedCount()).isZero();
    }

    @Test
    void anEntryResolvedTwiceOrNotHeldCountsOnce() {
        Claim claim = claimOf(List.of(5L, 6L, 7L));

        claim.resolve(6);
        claim.resolve(6);
        claim.resolve(99);

        assertThat(claim.unresolvedCount()).isEqualTo(2);
        assertThat(claim.isResolved(99)).isFalse();
        assertThat(claim.resolvedSeqs()).containsExactly(6);
        assertThat(claim.allResolved()).isFalse();
    }

    @Test
    void aLargeBatchIsLookedUpWhetherItsEntriesAscendOrNot() {
        List<Long> ascending = LongStream.range(1_000, 1_100).boxed().toList();
        List<Long> shuffled = new java.util.ArrayList<>(ascending);
        java.util.Collections.shuffle(shuffled, new java.util.Random(7));

        for (List<Long> seqs : List.of(ascending, shuffled)) {
            Claim claim = claimOf(seqs);
            assertThat(claim.seqs()).containsExactly(seqs.stream().mapToLong(Long::longValue).toArray());
            assertThat(claim.holds(999)).isFalse();
            assertThat(claim.holds(1_100)).isFalse();
            for (long seq : seqs) {
                assertThat(claim.holds(seq)).isTrue();
            }
            claim.resolve(1_050);
            claim.resolve(1_003);
            assertThat(claim.isResolved(1_050)).isTrue();
            assertThat(claim.isResolved(1_051)).isFalse();
            assertThat(claim.resolvedSeqs()).containsExactly(1_003, 1_050);
            for (long seq : seqs) {
                claim.resolve(seq);
            }
            assertThat(claim.allResolved()).isTrue();
        }
    }

    private static Claim claimOf(List<Long> seqs) {
        Claim claim = new Claim(null, null);
        long[] held = seqs.stream().mapToLong(Long::longValue).toArray();
        claim.hold(held, held.length);
        return claim;
    }
}
