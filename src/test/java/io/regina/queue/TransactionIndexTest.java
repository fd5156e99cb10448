package io.regina.queue;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class TransactionIndexTest {

    private final TransactionIndex index = new TransactionIndex();
    private long seq;

    private Message message(String id, String transactionId) {
        return new Message(seq++, null, id, transactionId, null, null, 0, 0, 0, null, 0, null);
    }

    @Test
    void aMessageWithoutItsOwnTransactionIdIsFoundByItsIdText() {
        String id = "0193a1c2-7d4e-7f00-8abc-00000000002a";
        Message unnamed = message(id, id);
        index.put(unnamed);

        assertThat(index.get(id)).isSameAs(unnamed);
        assertThat(unnamed.id()).isEqualTo(id);
        assertThat(unnamed.transactionId()).isEqualTo(id);
        assertThat(index.get(id.toUpperCase())).isNull();
        assertThat(index.get("0193a1c2-7d4e-7f00-8abc-00000000002b")).isNull();
    }

    @Test
    void aNamedTransactionIdThatIsAnotherMessagesIdIsTheSameKey() {
        String id = "0193a1c2-7d4e-7f00-8abc-000000000001";
        Message unnamed = message(id, id);
        Message repushed = message("0193a1c2-7d4e-7f00-8abc-000000000002", id);
        index.put(unnamed);
        index.put(repushed);

        assertThat(index.size()).isEqualTo(1);
        assertThat(index.get(id)).isSameAs(repushed);
        index.remove(unnamed);
        assertThat(index.get(id)).as("removing an entry no longer filed changes nothing").isSameAs(repushed);
        index.remove(repushed);
        assertThat(index.get(id)).isNull();
    }

    @Test
    void idsThatAreNotCanonicalUuidsStayTextAsGiven() {
        Message odd = message("ABC-not-a-uuid", "order-17");
        Message nil = message("00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000");
        Message none = message(null, null);
        index.put(odd);
        index.put(nil);

        assertThat(odd.id()).isEqualTo("ABC-not-a-uuid");
        assertThat(index.get("order-17")).isSameAs(odd);
        assertThat(nil.id()).isEqualTo("00000000-0000-0000-0000-000000000000");
        assertThat(index.get("00000000-0000-0000-0000-000000000000")).isSameAs(nil);
        assertThat(none.id()).isNull();
        assertThat(none.transactionId()).isNull();
        assertThat(index.get(null)).isNull();
    }

    @Test
    void itAgreesWithAHashMapThroughGrowthRemovalsAndShrinking() {
        Random random = new Random(7);
        Map<String, Message> expected = new HashMap<>();
        List<Message> stored = new ArrayList<>();
        for (int round = 0; round < 60_000; round++) {
            if (stored.isEmpty() || random.nextInt(3) > 0 || round < 20_000) {
                String id = new UUID(random.nextLong(), random.nextLong()).toString();
                // a few named ones, some reusing a stored message's transactionId
                String tx = random.nextInt(10) > 0 ? id : stored.isEmpty() || random.nextBoolean()
                        ? "tx-" + random.nextInt(5_000) : stored.get(random.nextInt(stored.size())).transactionId();
                Message m = message(id, tx);
                index.put(m);
                expected.put(tx, m);
                stored.add(m);
            } else {
                Message m = stored.remove(random.nextInt(stored.size()));
                index.remove(m);
                expected.remove(m.transactionId(), m);
            }
        }
        for (Message m : stored.subList(0, 20_000)) {
            index.remove(m);
            expected.remove(m.transactionId(), m);
        }

        assertThat(index.size()).isEqualTo(expected.size());
        for (Map.Entry<String, Message> entry : expected.entrySet()) {
            assertThat(index.get(entry.getKey())).isSameAs(entry.getValue());
        }
        for (Message m : stored) {
            Message found = index.get(m.transactionId());
            assertThat(found).isSameAs(expected.get(m.transactionId()));
        }
    }
}
