package io.regina.api;

import io.regina.api.dto.ObjectName;
import io.regina.api.dto.PayloadJson;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.util.unit.DataSize;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.module.SimpleModule;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;

/**
 * Reads a request body into its {@code api.dto} record, for the functional routes and the annotated
 * controllers alike, refusing what does not fit with the texts the hand-written readers used to give.
 * The binding is strict where Jackson would be lenient: a number is not a string, "5" is not a number,
 * 1 is not true; whole numbers may be written 5.0, as a tree's {@code canConvertToLong} allowed.
 */
class JsonBodies {
    /** What Spring's JSON decoder took, so these routes take it too. */
    private static final List<MediaType> JSON_TYPES = List.of(MediaType.APPLICATION_JSON,
            new MediaType("application", "*+json"), MediaType.APPLICATION_NDJSON);
    /** The body type the 415 answer has always named (the controllers once read a JsonNode); frozen wire text. */
    private static final ResolvableType NAMED_BODY_TYPE = ResolvableType.forClass(JsonNode.class);

    private final JsonMapper json;
    private final AckBodyReader acks;
    private final int maxBytes;

    JsonBodies(JsonMapper json, DataSize maxBytes) {
        this.json = strict(json);
        this.acks = new AckBodyReader(this.json);
        this.maxBytes = (int) maxBytes.toBytes();
    }

    private static JsonMapper strict(JsonMapper json) {
        SimpleModule binding = new SimpleModule("regina-strict-binding")
                .addDeserializer(Long.class, new WholeNumber())
                .setValueInstantiators(new RecordCreators());
        return json.rebuild()
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .withCoercionConfigDefaults(config -> {
                    for (CoercionInputShape shape : CoercionInputShape.values()) {
                        config.setCoercion(shape, CoercionAction.Fail);
                    }
                })
                .addModule(binding)
                .build();
    }

    /**
     * The body bound to {@code type}; no body, JSON {@code null} or another value than an object is
     * refused, naming the body {@code what}. A body that is not JSON is refused as Spring's codecs
     * refused it: 415 for another content type, 413 past spring.http.codecs.max-in-memory-size.
     */
    <T> Mono<T> read(ServerHttpRequest request, Class<T> type, String what) {
        return read(request, type, what, false).switchIfEmpty(Mono.error(() -> notAnObject(what)));
    }

    /** As {@link #read}, for a body whose every field is optional: empty when it is none or not an object. */
    <T> Mono<T> readOptional(ServerHttpRequest request, Class<T> type, String what) {
        return read(request, type, what, true);
    }

    /** The refusal of a request object (the body, or one nested in it) that is not a JSON object. */
    static ApiException notAnObject(String what) {
        return ApiException.badRequest("The request body must be a JSON object (" + what + ")");
    }

    /**
     * As {@link #read(ServerHttpRequest, Class, String)}, for a body already read whole ({@link HotConnection}),
     * which is at most {@link #maxBytes()} long.
     */
    <T> Mono<T> read(byte[] body, MediaType contentType, Class<T> type, String what) {
        try {
            // a value or an error, not an operator: what the endpoint does next runs on at once (flatMap's
            // scalar path) instead of subscribing through an operator chain per request
            return Mono.just(readWhole(body, contentType, type, what));
        } catch (RuntimeException e) {
            return Mono.error(e);
        } catch (OutOfMemoryError e) {
            return Mono.error(MemoryWatermark.outOfHeap());
        }
    }

    private <T> T readWhole(byte[] body, MediaType contentType, Class<T> type, String what) {
        if (!isJson(contentType)) {
            throw unsupported(contentType);
        }
        byte[] bytes = utf8(body, contentType);
        if (bytes.length == 0) {
            throw notAnObject(what);
        }
        if (contentType == null) {
            throw unsupported(null);
        }
        T value = bind(bytes, type, what);
        if (value == null) {
            throw notAnObject(what);
        }
        return value;
    }

    /** The longest body read: spring.http.codecs.max-in-memory-size. */
    int maxBytes() {
        return maxBytes;
    }

    private <T> Mono<T> read(ServerHttpRequest request, Class<T> type, String what, boolean nonObjectIsNone) {
        MediaType contentType = request.getHeaders().getContentType();
        if (!isJson(contentType)) {
            return Mono.error(unsupported(contentType));
        }
        return DataBufferUtils.join(request.getBody(), maxBytes).flatMap(buffer -> {
            try {
                return read(bytes(buffer), contentType, type, what, nonObjectIsNone);
            } catch (OutOfMemoryError e) {
                return Mono.error(MemoryWatermark.outOfHeap());
            }
        });
    }

    /** No content type (refused later if there is a body), or one Spring's JSON decoder took. */
    private static boolean isJson(MediaType contentType) {
        if (contentType == null) {
            return true;
        }
        for (MediaType json : JSON_TYPES) {
            if (json.isCompatibleWith(contentType)) {
                return true;
            }
        }
        return false;
    }

    private static UnsupportedMediaTypeStatusException unsupported(MediaType contentType) {
        return new UnsupportedMediaTypeStatusException(contentType, JSON_TYPES, NAMED_BODY_TYPE);
    }

    private <T> Mono<T> read(byte[] body, MediaType contentType, Class<T> type, String what,
                             boolean nonObjectIsNone) {
        byte[] bytes = utf8(body, contentType);
        if (bytes.length == 0) {
            return Mono.empty();
        }
        if (contentType == null) {
            return Mono.error(unsupported(null));
        }
        if (nonObjectIsNone && !startsWithObject(bytes)) {
            checkWellFormed(bytes);
            return Mono.empty();
        }
        return Mono.justOrEmpty(bind(bytes, type, what));
    }

    /** The body in UTF-8: one declared in another charset is transcoded, as Spring's decoder did. */
    private static byte[] utf8(byte[] body, MediaType contentType) {
        Charset charset = contentType == null ? null : contentType.getCharset();
        if (charset == null || charset.equals(StandardCharsets.UTF_8) || charset.equals(StandardCharsets.US_ASCII)) {
            return body;
        }
        return new String(body, charset).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(DataBuffer buffer) {
        try {
            byte[] bytes = new byte[buffer.readableByteCount()];
            buffer.read(bytes);
            return bytes;
        } finally {
            DataBufferUtils.release(buffer);
        }
    }

    /**
     * The body bound to {@code type} (null for JSON {@code null}); {@code what} names the body in refusals.
     * A worker's ack of the plain shape is read token by token ({@link AckBodyReader}), anything else bound.
     */
    <T> T bind(byte[] body, Class<T> type, String what) {
        T plain = acks.read(body, type);
        return plain != null ? plain : bound(body, type, what);
    }

    /** {@link #bind} by Jackson's binding alone. */
    <T> T bound(byte[] body, Class<T> type, String what) {
        try {
            return json.readerFor(type).withAttribute(PayloadJson.BODY, body).readValue(body);
        } catch (MismatchedInputException | InputCoercionException e) {
            String refusal = refusal(e, body, what);
            if (refusal == null) {
                throw unreadable(e);
            }
            throw ApiException.badRequest(refusal);
        } catch (JacksonException e) {
            throw unreadable(e);
        }
    }

    /** Refuses malformed JSON as unreadable, as reading it into a tree did. */
    private void checkWellFormed(byte[] body) {
        try {
            json.readTree(body);
        } catch (JacksonException e) {
            throw unreadable(e);
        }
    }

    private static ServerWebInputException unreadable(JacksonException e) {
        return new ServerWebInputException("Failed to read HTTP message", null, e);
    }

    /**
     * What a value of the wrong shape is told, located as the hand readers located it: each list element
     * on the way prefixes "list[i]: ". Null when the failure is not about one value's shape (what follows
     * a complete object, say), which is answered as unreadable JSON.
     */
    private static String refusal(JacksonException e, byte[] body, String what) {
        List<JacksonException.Reference> path = e.getPath();
        Class<?> target = e instanceof MismatchedInputException mismatch ? mismatch.getTargetType() : Long.class;
        if (path.isEmpty()) {
            return startsWithObject(body) ? null : notAnObject(what).getMessage();
        }
        JacksonException.Reference last = path.get(path.size() - 1);
        if (last.getPropertyName() == null) {
            String list = path.get(path.size() - 2).getPropertyName();
            String at = prefix(path, path.size() - 2);
            if (target == String.class) {
                return at + "'" + list + "' must be an array of strings";
            }
            ObjectName name = target == null ? null : target.getAnnotation(ObjectName.class);
            String element = list + "[" + last.getIndex() + "]";
            return name == null ? at + element + " must be an object"
                    : at + element + ": " + notAnObject(name.value()).getMessage();
        }
        String at = prefix(path, path.size() - 1);
        String field = "'" + last.getPropertyName() + "'";
        if (target == String.class) {
            return at + field + " must be a string";
        }
        if (target == Long.class || target == long.class || target == Integer.class || target == int.class) {
            return at + field + " must be an integer";
        }
        if (target == Boolean.class || target == boolean.class) {
            return at + field + " must be true or false";
        }
        if (target != null && Collection.class.isAssignableFrom(target)) {
            return at + field + " must be an array";
        }
        ObjectName name = target == null ? null : target.getAnnotation(ObjectName.class);
        return name == null ? at + field + " must be an object"
                : at + notAnObject(name.value()).getMessage();
    }

    /** "list[i]: " for each list element among the first {@code end} steps of the path. */
    private static String prefix(List<JacksonException.Reference> path, int end) {
        StringBuilder at = new StringBuilder();
        for (int i = 1; i < end; i++) {
            JacksonException.Reference step = path.get(i);
            if (step.getPropertyName() == null) {
                at.append(path.get(i - 1).getPropertyName()).append('[').append(step.getIndex()).append("]: ");
            }
        }
        return at.toString();
    }

    private static boolean startsWithObject(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return b == '{';
            }
        }
        return false;
    }

    /** A whole number: an integer token in range, or a float token with no fraction ("5.0"). */
    private static final class WholeNumber extends StdDeserializer<Long> {
        WholeNumber() {
            super(Long.class);
        }

        @Override
        public Long deserialize(JsonParser p, DeserializationContext ctxt) {
            JsonToken token = p.currentToken();
            if (token == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                return p.getLongValue();
            }
            if (token == JsonToken.VALUE_NUMBER_FLOAT) {
                double value = p.getDoubleValue();
                if (value == Math.rint(value) && value >= Long.MIN_VALUE && value <= Long.MAX_VALUE) {
                    return (long) value;
                }
            }
            return (Long) ctxt.handleUnexpectedToken(Long.class, p);
        }
    }
}
