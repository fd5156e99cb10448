package io.regina.api;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FieldChecksTest {
    @Test
    void aRequiredStringIsNonEmpty() {
        assertThat(FieldChecks.required("q", "queue")).isEqualTo("q");
        assertThatThrownBy(() -> FieldChecks.required("", "queue"))
                .hasMessage("'queue' is required (a non-empty string)");
        assertThatThrownBy(() -> FieldChecks.required(null, "transactionId"))
                .hasMessage("'transactionId' is required (a non-empty string)");
    }

    @Test
    void aWholeNumberTakesItsDefaultAndStaysInItsRange() {
        assertThat(FieldChecks.within("seconds", null, 60, 1, 86400)).isEqualTo(60);
        assertThat(FieldChecks.within("seconds", 86400L, 60, 1, 86400)).isEqualTo(86400);
        assertThatThrownBy(() -> FieldChecks.within("seconds", 0L, 60, 1, 86400))
                .hasMessage("'seconds' must be between 1 and 86400");
    }

    @Test
    void aListOfStringsHasNoNulls() {
        assertThat(FieldChecks.strings(null, "ids")).isEmpty();
        assertThat(FieldChecks.strings(List.of("a"), "ids")).containsExactly("a");
        assertThatThrownBy(() -> FieldChecks.strings(Arrays.asList("a", null), "traceNames"))
                .hasMessage("'traceNames' must be an array of strings");
    }
}
