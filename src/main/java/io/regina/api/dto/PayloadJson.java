package io.regina.api.dto;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads a pushed payload as its UTF-8 JSON, in a heap buffer whose bytes nobody changes any more. An object
 * or an array is a view of the request's own bytes from its first character to its last, whitespace and
 * escapes as sent: checked by the parser, neither decoded and written again nor copied. Any other value, or
 * a body read without its bytes at hand ({@link #BODY}), is the compact text {@link RawJson} reads. JSON
 * {@code null} reads as the text {@code null}; an absent field stays Java null.
 */
public final class PayloadJson extends ValueDeserializer<ByteBuffer> {
    /** The deserialization attribute holding the body being read, the array the parser reads. */
    public static final Object BODY = PayloadJson.class;

    @Override
    public ByteBuffer deserialize(JsonParser p, DeserializationContext ctxt) {
        JsonToken token = p.currentToken();
        if ((token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY)
                && ctxt.getAttribute(BODY) instanceof byte[] body) {
            long start = p.currentTokenLocation().getByteOffset();
            if (start >= 0) {
                p.skipChildren();
                long end = p.currentLocation().getByteOffset();
                return ByteBuffer.wrap(body, (int) start, (int) (end - start));
            }
        }
        return ByteBuffer.wrap(RawJson.compactText(p).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public ByteBuffer getNullValue(DeserializationContext ctxt) {
        return ByteBuffer.wrap("null".getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public Object getAbsentValue(DeserializationContext ctxt) {
        return null;
    }
}
