package io.regina.api.dto;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.json.JsonMapper;

import java.io.Writer;

/**
 * Reads any JSON value (a payload, trace data) as its compact text without building a tree: the text a
 * tree's {@code toString()} gave (same number and escape formats), at a fraction of the cost. JSON
 * {@code null} reads as the text {@code null}; an absent field stays Java null.
 */
public final class RawJson extends ValueDeserializer<String> {
    /** Each thread writes into its own text, kept between values unless one made it large. */
    private static final ThreadLocal<Text> TEXTS = ThreadLocal.withInitial(Text::new);
    private static final int KEPT_CAPACITY = 64 * 1024;

    @Override
    public String deserialize(JsonParser p, DeserializationContext ctxt) {
        return compactText(p);
    }

    /** The compact text of the value at {@code p}'s current token, which it reads to the value's end. */
    static String compactText(JsonParser p) {
        Text text = TEXTS.get().emptied();
        try (JsonGenerator generator = JsonMapper.shared().createGenerator(text)) {
            generator.copyCurrentStructure(p);
        }
        return text.toString();
    }

    @Override
    public String getNullValue(DeserializationContext ctxt) {
        return "null";
    }

    @Override
    public Object getAbsentValue(DeserializationContext ctxt) {
        return null;
    }

    /**
     * A writer into a reused builder: a {@code StringWriter} starts at 16 characters and copies its buffer at
     * each doubling, four times over for a payload of a few hundred bytes.
     */
    private static final class Text extends Writer {
        private StringBuilder chars = new StringBuilder(1024);

        @Override
        public void write(char[] buffer, int offset, int length) {
            chars.append(buffer, offset, length);
        }

        @Override
        public void write(String text, int offset, int length) {
            chars.append(text, offset, offset + length);
        }

        @Override
        public void write(int c) {
            chars.append((char) c);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }

        /** This text emptied of what an earlier value left, a value that failed halfway included. */
        Text emptied() {
            if (chars.capacity() > KEPT_CAPACITY) {
                chars = new StringBuilder(1024);
            } else {
                chars.setLength(0);
            }
            return this;
        }

        @Override
        public String toString() {
            return chars.toString();
        }
    }
}
