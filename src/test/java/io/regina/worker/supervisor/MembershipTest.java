package io.regina.worker.supervisor;

import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MembershipTest {

    @Test
    void theSharesOfEveryRankAddUpToTheTarget() {
        for (int members = 1; members <= 5; members++) {
            for (int target = 0; target <= 17; target++) {
                int n = members;
                int t = target;
                int[] shares = IntStream.range(0, n).map(rank -> new Membership(rank, n).share(t)).toArray();
                assertThat(IntStream.of(shares).sum()).as(t + " over " + n).isEqualTo(t);
                assertThat(IntStream.of(shares).max().orElseThrow() - IntStream.of(shares).min().orElseThrow())
                        .as("even").isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void theLowerRanksTakeTheRemainder() {
        assertThat(new Membership(0, 2).share(5)).isEqualTo(3);
        assertThat(new Membership(1, 2).share(5)).isEqualTo(2);
        assertThat(Membership.ALONE.share(7)).isEqualTo(7);
    }

    @Test
    void aRankOutsideTheMembersIsRefused() {
        assertThatThrownBy(() -> new Membership(2, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Membership(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
