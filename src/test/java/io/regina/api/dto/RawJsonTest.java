package io.regina.api.dto;

import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A payload is read as the compact text of its JSON, whatever the value before it left behind. */
class RawJsonTest {
    private final JsonMapper json = JsonMapper.shared();

    record Body(@JsonDeserialize(using = RawJson.class) String payload) { }

    @Test
    void readsAnyValueAsTheCompactTextItsTreeGives() {
        for (String value : new String[] {"{ \"a\" : 1, \"b\" : [ true, null, \"x\\u00e9\\n\" ], \"c\" : { } }",
                "[1, 2.50, -3e2]", "\"text\"", "7", "false"}) {
            assertThat(read("{\"payload\": " + value + "}")).as(value).isEqualTo(json.readTree(value).toString());
        }
        assertThat(read("{\"payload\": null}")).isEqualTo("null");
        assertThat(read("{}")).isNull();
    }

    @Test
    void aValueThatFailsHalfwayLeavesNothingForTheNext() {
        assertThatThrownBy(() -> read("{\"payload\": {\"a\": [1, 2, ")).isInstanceOf(JacksonException.class);
        assertThat(read("{\"payload\": {\"b\": 2}}")).isEqualTo("{\"b\":2}");
    }

    @Test
    void aLargeValueIsReadWholeAndTheNextSmallOneAlone() {
        String large = "\"" + "x".repeat(200_000) + "\"";
        assertThat(read("{\"payload\": " + large + "}")).isEqualTo(large);
        assertThat(read("{\"payload\": [1]}")).isEqualTo("[1]");
    }

    private String read(String body) {
        return json.readValue(body, Body.class).payload();
    }
}
