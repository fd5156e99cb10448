package io.regina.api;

import io.regina.api.dto.AckBatchRequest;
import io.regina.api.dto.AckRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the body a worker sends with every job, an ack or an ack batch, token by token when it has the
 * plain shape: an object of known fields with strings, whole numbers or nulls, unknown fields skipped
 * (as the binding skips them). Anything else (a field twice, a value of another type, a null where a list
 * or object goes, malformed or trailing JSON) is not read here: {@link #read} answers null and the
 * binding reads it, with its own refusals. Binding an ack was 9% of the event loop in the 32 × empty
 * ack+pop profile, most of it databind's machinery around six strings.
 */
final class AckBodyReader {
    private static final NotPlain NOT_PLAIN = new NotPlain();

    private final JsonMapper json;

    AckBodyReader(JsonMapper json) {
        this.json = json;
    }

    /** The body as {@code type} when it is an ack or an ack batch of the plain shape; null otherwise. */
    <T> T read(byte[] body, Class<T> type) {
        if (type != AckRequest.class && type != AckBatchRequest.class) {
            return null;
        }
        try (JsonParser parser = json.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            Object value = type == AckRequest.class ? ack(parser) : batch(parser);
            return parser.nextToken() == null ? type.cast(value) : null;
        } catch (JacksonException | NotPlain e) {
            return null;
        }
    }

    private AckBatchRequest batch(JsonParser parser) {
        List<AckRequest> acks = null;
        String consumerGroup = null;
        int seen = 0;
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "acknowledgments" -> {
                    seen = once(seen, 1);
                    acks = acks(parser, value);
                }
                case "consumerGroup" -> {
                    seen = once(seen, 2);
                    consumerGroup = string(parser, value);
                }
                default -> parser.skipChildren();
            }
        }
        return new AckBatchRequest(acks, consumerGroup);
    }

    private List<AckRequest> acks(JsonParser parser, JsonToken value) {
        if (value != JsonToken.START_ARRAY) {
            throw NOT_PLAIN;
        }
        List<AckRequest> acks = new ArrayList<>(2);
        JsonToken item;
        while ((item = parser.nextToken()) == JsonToken.START_OBJECT) {
            acks.add(ack(parser));
        }
        if (item != JsonToken.END_ARRAY) {
            throw NOT_PLAIN;
        }
        return acks;
    }

    private AckRequest ack(JsonParser parser) {
        String transactionId = null;
        String partitionId = null;
        String status = null;
        String error = null;
        String consumerGroup = null;
        String leaseId = null;
        Long delayMs = null;
        Long retryAfterMs = null;
        int seen = 0;
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.PROPERTY_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "transactionId" -> {
                    seen = once(seen, 1);
                    transactionId = string(parser, value);
                }
                case "partitionId" -> {
                    seen = once(seen, 2);
                    partitionId = string(parser, value);
                }
                case "status" -> {
                    seen = once(seen, 4);
                    status = string(parser, value);
                }
                case "error" -> {
                    seen = once(seen, 8);
                    error = string(parser, value);
                }
                case "consumerGroup" -> {
                    seen = once(seen, 16);
                    consumerGroup = string(parser, value);
                }
                case "leaseId" -> {
                    seen = once(seen, 32);
                    leaseId = string(parser, value);
                }
                case "delayMs" -> {
                    seen = once(seen, 64);
                    delayMs = whole(parser, value);
                }
                case "retryAfterMs" -> {
                    seen = once(seen, 128);
                    retryAfterMs = whole(parser, value);
                }
                default -> parser.skipChildren();
            }
        }
        if (token != JsonToken.END_OBJECT) {
            throw NOT_PLAIN;
        }
        return new AckRequest(transactionId, partitionId, status, error, consumerGroup, leaseId, delayMs, retryAfterMs);
    }

    private static int once(int seen, int field) {
        if ((seen & field) != 0) {
            throw NOT_PLAIN;
        }
        return seen | field;
    }

    private static String string(JsonParser parser, JsonToken value) {
        if (value == JsonToken.VALUE_STRING) {
            return parser.getString();
        }
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        throw NOT_PLAIN;
    }

    private static Long whole(JsonParser parser, JsonToken value) {
        if (value == JsonToken.VALUE_NUMBER_INT && (parser.getNumberType() == JsonParser.NumberType.INT
                || parser.getNumberType() == JsonParser.NumberType.LONG)) {
            return parser.getLongValue();
        }
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        throw NOT_PLAIN;
    }

    /** A body this reader leaves to the binding; thrown without a stack, caught in {@link #read}. */
    private static final class NotPlain extends RuntimeException {
        private NotPlain() {
            super(null, null, false, false);
        }
    }
}
