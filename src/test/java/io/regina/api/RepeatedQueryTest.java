package io.regina.api;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A connection's repeated query is read once, and a changed one is read again. */
class RepeatedQueryTest {
    private final RepeatedQuery queries = new RepeatedQuery();

    @Test
    void aWorkersRepeatedQueryIsReadOnceAndSharedReadOnly() {
        Map<String, String> first = queries.of("batch=1&wait=true&timeout=1000");
        Map<String, String> again = queries.of(new String("batch=1&wait=true&timeout=1000"));

        assertThat(again).isSameAs(first)
                .containsOnly(Map.entry("batch", "1"), Map.entry("wait", "true"), Map.entry("timeout", "1000"));
        assertThatThrownBy(() -> again.put("batch", "10")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theAcksBetweenAWorkersPopsLeaveItsQueryRead() {
        Map<String, String> pop = queries.of("batch=1&wait=true");

        assertThat(queries.of(null)).isEmpty();
        assertThat(queries.of("batch=1&wait=true")).isSameAs(pop);
        assertThatThrownBy(() -> queries.of(null).put("batch", "1")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aChangedQueryIsReadAsWrittenAndTheFirstOneAgainAfterIt() {
        assertThat(queries.of("batch=1&wait=true")).containsOnly(Map.entry("batch", "1"), Map.entry("wait", "true"));
        Map<String, String> changed = queries.of("batch=5&consumerGroup=a%20b&autoAck");
        assertThat(changed).containsOnlyKeys("batch", "consumerGroup", "autoAck")
                .containsEntry("batch", "5").containsEntry("consumerGroup", "a b").containsEntry("autoAck", null);
        assertThat(queries.of(null)).isEmpty();
        assertThat(queries.of("batch=1&wait=true")).containsOnly(Map.entry("batch", "1"), Map.entry("wait", "true"));
    }
}
