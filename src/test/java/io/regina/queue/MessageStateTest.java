package io.regina.queue;

import static io.regina.queue.MessageState.CONSUMED;
import static io.regina.queue.MessageState.DELAYED;
import static io.regina.queue.MessageState.FAILED;
import static io.regina.queue.MessageState.FORGOTTEN;
import static io.regina.queue.MessageState.LEASED;
import static io.regina.queue.MessageState.PENDING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The message-state table of {@link MessageState}'s Javadoc, move by move. */
class MessageStateTest {

    private static final Map<MessageState, Set<MessageState>> TABLE = Map.of(
            PENDING, Set.of(LEASED, CONSUMED, FAILED, DELAYED, PENDING, FORGOTTEN),
            DELAYED, Set.of(PENDING, FORGOTTEN),
            LEASED, Set.of(CONSUMED, PENDING, DELAYED, FAILED),
            CONSUMED, Set.of(PENDING),
            FAILED, Set.of(PENDING, FORGOTTEN),
            FORGOTTEN, Set.of());

    @Test
    void everyMoveOfTheTableIsAllowedAndEveryOtherIsRefused() {
        for (MessageState from : MessageState.values()) {
            for (MessageState to : MessageState.values()) {
                if (TABLE.get(from).contains(to)) {
                    assertThat(MessageState.transition(from, to)).isEqualTo(to);
                } else {
                    assertThatThrownBy(() -> MessageState.transition(from, to))
                            .isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining(from + " -> " + to);
                }
            }
        }
    }

    @Test
    void aForgottenMessageNeverComesBackAndAConsumedOneOnlyBySeekingBack() {
        assertThat(FORGOTTEN.allows(PENDING)).isFalse();
        assertThat(CONSUMED.allows(LEASED)).isFalse();
        assertThat(LEASED.allows(LEASED)).as("a message is never leased twice at once").isFalse();
    }
}
