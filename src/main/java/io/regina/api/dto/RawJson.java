package io.regina.api.dto;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.json.JsonMapper;

import java.io.StringWriter;

/**
 * Reads any JSON value (a payload, trace data) as its compact text without building a tree: the text a
 * tree's {@code toString()} gave (same number and escape formats), at a fraction of the cost. JSON
 * {@code null} reads as the text {@code null}; an absent field stays Java null.
 */
public final class RawJson extends ValueDeserializer<String> {
    @Override
    public String deserialize(JsonParser p, DeserializationContext ctxt) {
        StringWriter text = new StringWriter();
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
}
