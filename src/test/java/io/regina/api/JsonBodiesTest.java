package io.regina.api;

import io.regina.api.dto.AckBatchRequest;
import io.regina.api.dto.FailedJobBodies;
import io.regina.api.dto.PushRequest;
import io.regina.api.dto.QueueBodies;
import io.regina.api.dto.TransactionRequest;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.util.unit.DataSize;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonBodiesTest {
    private final JsonBodies bodies = new JsonBodies(JsonMapper.builder().build(), DataSize.ofKilobytes(1));

    @Test
    void bindsARecordIgnoringUnknownFields() {
        PushRequest push = bind("{\"items\":[{\"queue\":\"q\",\"payload\":{\"n\":1},\"delayMs\":5.0,\"x\":1}]}",
                PushRequest.class);
        PushRequest.Item item = push.items().get(0);
        assertThat(item.queue()).isEqualTo("q");
        assertThat(text(item.payload())).isEqualTo("{\"n\":1}");
        assertThat(item.delayMs()).isEqualTo(5L);
    }

    @Test
    void aWrongScalarIsNamedWithItsPlace() {
        assertRefused("{\"items\":[{\"queue\":5}]}", PushRequest.class, "items[0]: 'queue' must be a string");
        assertRefused("{\"items\":[{\"queue\":\"q\",\"transactionId\":true}]}", PushRequest.class,
                "items[0]: 'transactionId' must be a string");
        assertRefused("{\"items\":[{\"delayMs\":\"5\"}]}", PushRequest.class, "items[0]: 'delayMs' must be an integer");
        assertRefused("{\"items\":[{\"delayMs\":1.5}]}", PushRequest.class, "items[0]: 'delayMs' must be an integer");
        assertRefused("{\"items\":[{\"delayMs\":99999999999999999999}]}", PushRequest.class,
                "items[0]: 'delayMs' must be an integer");
        assertRefused("{\"acknowledgments\":[],\"consumerGroup\":5}", AckBatchRequest.class,
                "'consumerGroup' must be a string");
        assertRefused("{\"operations\":[{\"type\":\"push\",\"items\":[{\"queue\":1}]}]}", TransactionRequest.class,
                "operations[0]: items[0]: 'queue' must be a string");
    }

    @Test
    void aWrongContainerIsNamedAsTheHandReadersNamedIt() {
        assertRefused("{\"items\":{}}", PushRequest.class, "'items' must be an array");
        assertRefused("{\"items\":[5]}", PushRequest.class, "items[0] must be an object");
        assertRefused("{\"acknowledgments\":[5]}", AckBatchRequest.class,
                "acknowledgments[0]: The request body must be a JSON object (acknowledgment)");
        assertRefused("{\"operations\":[\"x\"]}", TransactionRequest.class,
                "operations[0]: The request body must be a JSON object (operation)");
        assertRefused("{\"operations\":[],\"requiredLeases\":[1]}", TransactionRequest.class,
                "'requiredLeases' must be an array of strings");
        assertRefused("[]", PushRequest.class, "The request body must be a JSON object (push)");
        assertRefused("5", PushRequest.class, "The request body must be a JSON object (push)");
    }

    @Test
    void anObjectOrArrayPayloadIsReadAsTheBytesSent() {
        String object = "{ \"a\" : 1.10, \"b\": 1E5, \"c\": [true, null],\n \"d\": \"\\u00e9\\n\u00e9\\\"}\" }";
        String array = "[ 1,\t{\"x\":[]} , \"\u2603\" ]";
        PushRequest push = bind("{\"items\":[{\"payload\": " + object + " , \"queue\":\"q\"}, {\"payload\":" + array
                + "}, {\"payload\": {}}]}", PushRequest.class);
        assertThat(text(push.items().get(0).payload())).isEqualTo(object);
        assertThat(push.items().get(0).queue()).isEqualTo("q");
        assertThat(text(push.items().get(1).payload())).isEqualTo(array);
        assertThat(text(push.items().get(2).payload())).isEqualTo("{}");
    }

    @Test
    void aPayloadAfterAByteOrderMarkIsStillTheBytesSent() {
        String object = "{ \"a\" : [1, 2] }";
        PushRequest push = bind("\uFEFF{\"items\":[{\"payload\": " + object + "}]}", PushRequest.class);
        assertThat(text(push.items().get(0).payload())).isEqualTo(object);
    }

    @Test
    void aScalarPayloadIsReadAsItsCompactTextAndNullAsTheTextNull() {
        PushRequest push = bind("{\"items\":[{\"payload\": 1.10}, {\"payload\": \"\\u0041b\"}, {\"payload\": null},"
                + " {}]}", PushRequest.class);
        assertThat(text(push.items().get(0).payload())).isEqualTo("1.1");
        assertThat(text(push.items().get(1).payload())).isEqualTo("\"Ab\"");
        assertThat(text(push.items().get(2).payload())).isEqualTo("null");
        assertThat(push.items().get(3).payload()).isNull();
    }

    @Test
    void aPayloadThatIsNotJsonOrNotUtf8IsRefusedAsUnreadable() {
        for (String bad : new String[] {"{\"a\": [1, 2}", "{\"a\": \"\\x\"}", "{\"a\": \"tab\there\"}", "{\"a\" 1}"}) {
            assertThatThrownBy(() -> bind("{\"items\":[{\"queue\":\"q\",\"payload\":" + bad + "}]}", PushRequest.class))
                    .as(bad).isInstanceOf(ServerWebInputException.class);
        }
        byte[] prefix = "{\"items\":[{\"queue\":\"q\",\"payload\":{\"a\":\"".getBytes(StandardCharsets.UTF_8);
        byte[] suffix = "\"}}]}".getBytes(StandardCharsets.UTF_8);
        for (byte[] invalid : new byte[][] {{(byte) 0xC3}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xFF}}) {
            byte[] body = new byte[prefix.length + invalid.length + suffix.length];
            System.arraycopy(prefix, 0, body, 0, prefix.length);
            System.arraycopy(invalid, 0, body, prefix.length, invalid.length);
            System.arraycopy(suffix, 0, body, prefix.length + invalid.length, suffix.length);
            assertThatThrownBy(() -> bodies.bind(body, PushRequest.class, "push"))
                    .isInstanceOf(ServerWebInputException.class);
        }
    }

    @Test
    void jsonNullIsNoBody() {
        assertThat(bind("null", PushRequest.class)).isNull();
    }

    @Test
    void textThatIsNotJsonIsUnreadable() {
        assertThatThrownBy(() -> bind("not json", PushRequest.class)).isInstanceOf(ServerWebInputException.class);
        assertThatThrownBy(() -> bind("{\"items\":[]} {}", PushRequest.class))
                .isInstanceOf(ServerWebInputException.class);
    }

    @Test
    void anotherContentTypeIsUnsupportedAndNamesTheBodyTypeAsAlways() {
        MockServerHttpRequest request = MockServerHttpRequest.post("/api/v1/push")
                .header(HttpHeaders.CONTENT_TYPE, "text/plain").body("{}");
        assertThatThrownBy(() -> bodies.read(request, PushRequest.class, "push").block())
                .isInstanceOfSatisfying(UnsupportedMediaTypeStatusException.class, e -> assertThat(e.getReason())
                        .isEqualTo("Content type 'text/plain' not supported for bodyType=tools.jackson.databind.JsonNode"));
    }

    @Test
    void noContentTypeIsUnsupportedUnlessTheBodyIsEmpty() {
        MockServerHttpRequest request = MockServerHttpRequest.post("/api/v1/push").body("{}");
        assertThatThrownBy(() -> bodies.read(request, PushRequest.class, "push").block())
                .isInstanceOfSatisfying(UnsupportedMediaTypeStatusException.class,
                        e -> assertThat(e.getStatusCode()).isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE));
    }

    @Test
    void aJsonContentTypeWithACharsetIsRead() {
        MockServerHttpRequest request = MockServerHttpRequest.post("/api/v1/push")
                .header(HttpHeaders.CONTENT_TYPE, "application/json;charset=UTF-8").body("{\"items\":[]}");
        assertThat(bodies.read(request, PushRequest.class, "push").block().items()).isEmpty();
    }

    @Test
    void aBodyInAnotherCharsetIsTranscodedAndNdjsonIsJson() {
        MockServerHttpRequest latin1 = MockServerHttpRequest.post("/api/v1/push")
                .header(HttpHeaders.CONTENT_TYPE, "application/json;charset=ISO-8859-1")
                .body(Mono.just(DefaultDataBufferFactory.sharedInstance.wrap(
                        "{\"items\":[{\"queue\":\"caf\u00e9\"}]}".getBytes(StandardCharsets.ISO_8859_1))));
        assertThat(bodies.read(latin1, PushRequest.class, "push").block().items().get(0).queue()).isEqualTo("caf\u00e9");
        MockServerHttpRequest ndjson = MockServerHttpRequest.post("/api/v1/push")
                .header(HttpHeaders.CONTENT_TYPE, "application/x-ndjson").body("{\"items\":[]}");
        assertThat(bodies.read(ndjson, PushRequest.class, "push").block().items()).isEmpty();
    }

    @Test
    void aBodyPastTheLimitIsTooLarge() {
        MockServerHttpRequest request = MockServerHttpRequest.post("/api/v1/push")
                .header(HttpHeaders.CONTENT_TYPE, "application/json").body("{\"x\":\"" + "x".repeat(2000) + "\"}");
        assertThatThrownBy(() -> bodies.read(request, PushRequest.class, "push").block())
                .isInstanceOf(org.springframework.core.io.buffer.DataBufferLimitException.class);
    }

    @Test
    void whereEveryFieldIsOptionalABodyThatIsNotAnObjectIsNoneButMalformedJsonIsRefused() {
        assertThat(bodies.readOptional(json("[1]"), PushRequest.class, "flush").blockOptional()).isEmpty();
        assertThat(bodies.readOptional(MockServerHttpRequest.post("/").build(), PushRequest.class, "flush")
                .blockOptional()).isEmpty();
        assertThatThrownBy(() -> bodies.readOptional(json("nope"), PushRequest.class, "flush").block())
                .isInstanceOf(ServerWebInputException.class);
    }

    @Test
    void aRequiredBodyThatIsNoneOrNotAnObjectIsRefusedByName() {
        assertThatThrownBy(() -> bodies.read(json("[1]"), PushRequest.class, "push").block())
                .hasMessage("The request body must be a JSON object (push)");
        assertThatThrownBy(() -> bodies.read(json("null"), PushRequest.class, "push").block())
                .hasMessage("The request body must be a JSON object (push)");
        assertThatThrownBy(() -> bodies.read(MockServerHttpRequest.post("/").build(), PushRequest.class, "push")
                .block()).hasMessage("The request body must be a JSON object (push)");
    }

    @Test
    void anOptionsObjectOfTheWrongShapeIsNamedByItsField() {
        assertRefused("{\"queue\":\"q\",\"options\":[]}", QueueBodies.ConfigureRequest.class,
                "'options' must be an object");
        assertRefused("{\"queue\":\"q\",\"options\":{\"retentionEnabled\":1}}", QueueBodies.ConfigureRequest.class,
                "'retentionEnabled' must be true or false");
        assertRefused("{\"filter\":5}", FailedJobBodies.RetryRequest.class,
                "The request body must be a JSON object (filter)");
    }

    private static MockServerHttpRequest json(String body) {
        return MockServerHttpRequest.post("/").header(HttpHeaders.CONTENT_TYPE, "application/json").body(body);
    }

    private static String text(ByteBuffer utf8) {
        return StandardCharsets.UTF_8.decode(utf8.duplicate()).toString();
    }

    private <T> T bind(String body, Class<T> type) {
        return bodies.bind(body.getBytes(StandardCharsets.UTF_8), type, "push");
    }

    private <T> void assertRefused(String body, Class<T> type, String message) {
        assertThatThrownBy(() -> bind(body, type)).isInstanceOf(ApiException.class).hasMessage(message);
    }
}
