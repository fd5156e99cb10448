package io.regina.faults;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The checker on hand-made histories: it passes a clean one and catches each broken promise. */
class CheckerTest {
    private static final String GROUP = "__QUEUE_MODE__";
    private final Checker checker = new Checker(Duration.ofSeconds(5), List.of(GROUP));
    private final History history = new History();

    private void pushed(String id, long sent, long answered) {
        history.push(new History.Push(id, "p0", sent, answered, History.Outcome.OK));
    }

    private void delivered(String id, String lease, long sent, long received, int index) {
        history.delivered(new History.Delivery(id, "p0", GROUP, lease, "n1", sent, received, index));
    }

    private void acked(String id, String lease, long sent, long answered) {
        history.acked(new History.Ack(id, GROUP, lease, sent, answered, true));
    }

    private static List<NodeState> sameNodes() {
        return List.of(new NodeState("n1", 40, Map.of(GROUP, 0L)), new NodeState("n2", 40, Map.of(GROUP, 0L)));
    }

    @Test
    void aCleanHistoryPassesWithItsFigures() {
        pushed("a", 0, 10);
        pushed("b", 20, 1_030);
        delivered("a", "L1", 1_100, 1_110, 0);
        delivered("b", "L1", 1_100, 1_110, 1);
        acked("a", "L1", 1_120, 1_130);
        acked("b", "L1", 1_120, 1_130);

        Report report = checker.check(history, sameNodes());

        assertThat(report.clean()).as(report.summary()).isTrue();
        assertThat(report.acknowledged()).isEqualTo(2);
        assertThat(report.longestWriteGapMs()).isEqualTo(1_020);
        assertThat(report.longestWriteGapFromMs()).isEqualTo(10);
        report.assertClean();
    }

    @Test
    void anAcknowledgedPushNeverDeliveredIsLost() {
        pushed("a", 0, 10);
        pushed("b", 20, 30);
        delivered("a", "L1", 100, 110, 0);
        history.push(new History.Push("c", "p0", 40, 50, History.Outcome.UNKNOWN));

        Report report = checker.check(history, sameNodes());

        assertThat(report.lost()).containsExactly(GROUP + "/b");
        assertThatThrownBy(report::assertClean).hasMessageContaining("lost=1");
    }

    @Test
    void twoConsumersHoldingValidLeasesOnOneMessageAreCaught() {
        pushed("a", 0, 10);
        delivered("a", "L1", 100, 110, 0);
        delivered("a", "L2", 2_000, 2_010, 0);

        Report report = checker.check(history, sameNodes());

        assertThat(report.doubleLeased()).hasSize(1);
        assertThat(report.duplicated()).isEqualTo(1);
        assertThat(report.clean()).isFalse();
    }

    @Test
    void aRedeliveryAfterTheLeaseExpiredIsOnlyADuplicate() {
        pushed("a", 0, 10);
        delivered("a", "L1", 100, 110, 0);
        delivered("a", "L2", 5_200, 5_210, 0);
        acked("a", "L2", 5_300, 5_310);

        Report report = checker.check(history, sameNodes());

        assertThat(report.duplicated()).isEqualTo(1);
        assertThat(report.clean()).as(report.summary()).isTrue();
    }

    @Test
    void aRedeliveryAfterTheFirstAckWasSentIsNotDoubleLeased() {
        pushed("a", 0, 10);
        delivered("a", "L1", 100, 110, 0);
        history.acked(new History.Ack("a", GROUP, "L1", 200, 10_200, false));
        delivered("a", "L2", 300, 310, 0);

        assertThat(checker.check(history, sameNodes()).doubleLeased()).isEmpty();
    }

    @Test
    void aMessageDeliveredBeforeOneAcknowledgedEarlierIsReordered() {
        pushed("first", 0, 10);
        pushed("second", 20, 30);
        delivered("second", "L1", 100, 110, 0);
        delivered("first", "L1", 100, 110, 1);

        Report report = checker.check(history, sameNodes());

        assertThat(report.reordered()).containsExactly(GROUP + "/second on p0");
    }

    @Test
    void concurrentPushesMayBeDeliveredInEitherOrder() {
        pushed("first", 0, 50);
        pushed("second", 20, 30);
        delivered("second", "L1", 100, 110, 0);
        delivered("first", "L1", 100, 110, 1);

        assertThat(checker.check(history, sameNodes()).reordered()).isEmpty();
    }

    @Test
    void anAckedMessageThatComesBackIsCaught() {
        pushed("a", 0, 10);
        delivered("a", "L1", 100, 110, 0);
        acked("a", "L1", 120, 130);
        delivered("a", "L2", 6_000, 6_010, 0);

        Report report = checker.check(history, sameNodes());

        assertThat(report.ackedReturned()).hasSize(1);
        assertThat(report.doubleLeased()).isEmpty();
    }

    @Test
    void aDeliveryOfARefusedPushIsAPhantom() {
        history.push(new History.Push("x", "p0", 0, 10, History.Outcome.FAILED));
        delivered("x", "L1", 100, 110, 0);

        assertThat(checker.check(history, sameNodes()).phantoms()).containsExactly(GROUP + "/x");
    }

    @Test
    void nodesThatDisagreeAreDivergent() {
        pushed("a", 0, 10);
        delivered("a", "L1", 100, 110, 0);

        Report report = checker.check(history, List.of(new NodeState("n1", 40, Map.of(GROUP, 0L)),
                new NodeState("n2", 39, Map.of(GROUP, 0L)), new NodeState("n3", 40, Map.of(GROUP, 1L))));

        assertThat(report.divergent()).hasSize(2);
    }

    @Test
    void everyDrainedGroupMustReceiveEveryAcknowledgedPush() {
        pushed("a", 0, 10);
        delivered("a", "L1", 100, 110, 0);

        Report report = new Checker(Duration.ofSeconds(5), List.of(GROUP, "audit")).check(history, sameNodes());

        assertThat(report.lost()).containsExactly("audit/a");
    }
}
