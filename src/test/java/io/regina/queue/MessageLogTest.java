package io.regina.queue;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A partition's log finds every entry by its sequence number however it grew, moved and emptied. */
class MessageLogTest {

    private static Message entry(long seq, long appendedAt) {
        return new Message(seq, null, null, "tx-" + seq, null, null, 0, appendedAt, appendedAt, null, 0, null);
    }

    @Test
    void entriesAreFoundBySequenceWhileTheHeadLeavesAndTheTailGrows() {
        MessageLog log = new MessageLog(100);
        long removed = 100;
        for (long seq = 100; seq < 1_100; seq++) {
            log.append(entry(seq, seq * 10));
            // keeps a window of up to seven entries, so the array is both refilled from the front and grown
            if (seq % 3 == 0) {
                while (log.size() > 2) {
                    assertThat(log.removeHead().seq).isEqualTo(removed++);
                }
            }
            assertThat(log.headSeq()).isEqualTo(removed);
            assertThat(log.tailSeq()).isEqualTo(seq + 1);
            for (long at = removed; at <= seq; at++) {
                assertThat(log.get(at).seq).isEqualTo(at);
            }
            assertThat(log.get(removed - 1)).isNull();
            assertThat(log.get(seq + 1)).isNull();
            assertThat(log.head().seq).isEqualTo(removed);
            assertThat(log.newest().seq).isEqualTo(seq);
        }
    }

    @Test
    void anEmptiedLogKeepsItsSequenceAndTakesEntriesAgain() {
        MessageLog log = new MessageLog(7);
        for (long seq = 7; seq < 27; seq++) {
            log.append(entry(seq, seq));
        }
        while (!log.isEmpty()) {
            log.removeHead();
        }
        assertThat(log.head()).isNull();
        assertThat(log.newest()).isNull();
        assertThat(log.headSeq()).isEqualTo(27);
        assertThat(log.firstAppendedAfter(0)).isEqualTo(27);

        log.append(entry(27, 50));
        log.append(entry(28, 60));
        List<Long> seqs = new ArrayList<>();
        log.entries().forEach(m -> seqs.add(m.seq));
        assertThat(seqs).containsExactly(27L, 28L);
        assertThat(log.firstAppendedAfter(49)).isEqualTo(27);
        assertThat(log.firstAppendedAfter(50)).isEqualTo(28);
        assertThat(log.firstAppendedAfter(60)).isEqualTo(29);
    }

    @Test
    void anEntryOutOfOrderIsRefused() {
        MessageLog log = new MessageLog(0);
        log.append(entry(0, 1));
        assertThatThrownBy(() -> log.append(entry(2, 2)))
                .isInstanceOf(IllegalStateException.class);
    }
}
