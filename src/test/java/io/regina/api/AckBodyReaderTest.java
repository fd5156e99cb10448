package io.regina.api;

import io.regina.api.dto.AckBatchRequest;
import io.regina.api.dto.AckRequest;
import io.regina.api.dto.PushRequest;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AckBodyReaderTest {
    private static final String ACK = "{\"transactionId\":\"019a-1\",\"partitionId\":\"019a-2\",\"leaseId\":\"019a-3\","
            + "\"status\":\"completed\"}";

    private final JsonBodies bodies = new JsonBodies(JsonMapper.builder().build(), DataSize.ofKilobytes(64));
    private final AckBodyReader reader = new AckBodyReader(JsonMapper.builder().build());
    private final SplittableRandom random = new SplittableRandom(8);

    @Test
    void readsTheBodiesWorkersSendAsTheBindingReadsThem() {
        for (String body : List.of(ACK,
                "{\"transactionId\":\"t\",\"partitionId\":\"p\",\"status\":\"failed\",\"error\":\"boom \\\"x\\\"\\n\","
                        + "\"retryAfterMs\":2500,\"consumerGroup\":null,\"leaseId\":null}",
                "{\"transactionId\":\"t\",\"status\":\"release\",\"delayMs\":0,\"extra\":{\"a\":[1,{\"b\":2}]}}",
                " {} ")) {
            assertThat(reader.read(bytes(body), AckRequest.class)).as(body).isNotNull()
                    .isEqualTo(bodies.bound(bytes(body), AckRequest.class, "ack"));
        }
        for (String body : List.of("{\"acknowledgments\":[" + ACK + "]}",
                "{\"acknowledgments\":[" + ACK + "," + ACK + "],\"consumerGroup\":\"g\"}",
                "{\"acknowledgments\":[],\"consumerGroup\":null,\"unknown\":[[]]}", "{}")) {
            assertThat(reader.read(bytes(body), AckBatchRequest.class)).as(body).isNotNull()
                    .isEqualTo(bodies.bound(bytes(body), AckBatchRequest.class, "ack batch"));
        }
    }

    @Test
    void leavesEveryOtherShapeToTheBinding() {
        for (String body : List.of("{\"transactionId\":5}", "{\"transactionId\":\"a\",\"transactionId\":\"b\"}",
                "{\"delayMs\":1.0}", "{\"delayMs\":\"5\"}", "{\"delayMs\":99999999999999999999}", "{\"status\":true}",
                "{\"error\":{}}", "[]", "null", "5", "{\"transactionId\":\"t\"} {}", "{\"transactionId\":\"t\"",
                "{\"transactionId\":\"t\",}", "")) {
            assertThat(reader.read(bytes(body), AckRequest.class)).as(body).isNull();
        }
        for (String body : List.of("{\"acknowledgments\":null}", "{\"acknowledgments\":[null]}",
                "{\"acknowledgments\":[5]}", "{\"acknowledgments\":{}}", "{\"acknowledgments\":[],\"acknowledgments\":[]}",
                "{\"acknowledgments\":[{\"leaseId\":7}]}", "{\"consumerGroup\":[]}")) {
            assertThat(reader.read(bytes(body), AckBatchRequest.class)).as(body).isNull();
        }
        assertThat(reader.read(bytes("{\"items\":[]}"), PushRequest.class)).isNull();
    }

    @Test
    void whatItLeavesIsRefusedByTheBindingAsBefore() {
        assertThatThrownBy(() -> bodies.bind(bytes("{\"acknowledgments\":[{\"leaseId\":7}]}"), AckBatchRequest.class,
                "ack batch")).hasMessage("acknowledgments[0]: 'leaseId' must be a string");
        assertThatThrownBy(() -> bodies.bind(bytes("{\"delayMs\":\"5\"}"), AckRequest.class, "ack"))
                .hasMessage("'delayMs' must be an integer");
    }

    @Test
    void randomAckBodiesReadAsTheBindingReadsThem() {
        List<String> values = List.of("null", "\"\"", "\"t-1\"", "\"\\u00e9\\t\"", "0", "-3", "12345678901", "1.5",
                "true", "{}", "[1]");
        List<String> names = List.of("transactionId", "partitionId", "status", "error", "consumerGroup", "leaseId",
                "delayMs", "retryAfterMs", "other");
        int plain = 0;
        for (int i = 0; i < 5_000; i++) {
            List<String> fields = new ArrayList<>();
            for (int n = random.nextInt(6); n > 0; n--) {
                fields.add("\"" + names.get(random.nextInt(names.size())) + "\":" + values.get(random.nextInt(values.size())));
            }
            byte[] body = bytes("{\"acknowledgments\":[{" + String.join(",", fields) + "}]}");
            AckBatchRequest read = reader.read(body, AckBatchRequest.class);
            if (read != null) {
                plain++;
                assertThat(read).as(new String(body, StandardCharsets.UTF_8))
                        .isEqualTo(bodies.bound(body, AckBatchRequest.class, "ack batch"));
            }
        }
        assertThat(plain).isGreaterThan(500);
    }

    private static byte[] bytes(String body) {
        return body.getBytes(StandardCharsets.UTF_8);
    }
}
