package io.regina.api;

import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/** Reads typed fields from a JSON request, refusing a wrong type with a message that names the field. */
final class JsonFields {
    private JsonFields() {
    }

    static JsonNode object(JsonNode body, String what) {
        if (body == null || !body.isObject()) {
            throw ApiException.badRequest("The request body must be a JSON object (" + what + ")");
        }
        return body;
    }

    static boolean present(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && !value.isNull();
    }

    static String string(JsonNode node, String field, String fallback) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isString()) {
            throw ApiException.badRequest("'" + field + "' must be a string");
        }
        return value.stringValue();
    }

    static String requiredString(JsonNode node, String field) {
        String value = string(node, field, null);
        if (value == null || value.isEmpty()) {
            throw ApiException.badRequest("'" + field + "' is required (a non-empty string)");
        }
        return value;
    }

    static long number(JsonNode node, String field, long fallback) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isNumber() || !value.canConvertToLong()) {
            throw ApiException.badRequest("'" + field + "' must be an integer");
        }
        return value.longValue();
    }

    static int integer(JsonNode node, String field, int fallback, int min, int max) {
        long value = number(node, field, fallback);
        if (value < min || value > max) {
            throw ApiException.badRequest("'" + field + "' must be between " + min + " and " + max);
        }
        return (int) value;
    }

    static boolean bool(JsonNode node, String field, boolean fallback) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isBoolean()) {
            throw ApiException.badRequest("'" + field + "' must be true or false");
        }
        return value.booleanValue();
    }

    static JsonNode array(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isArray()) {
            throw ApiException.badRequest("'" + field + "' must be an array");
        }
        return value;
    }

    static List<String> strings(JsonNode node, String field) {
        JsonNode values = array(node, field);
        List<String> strings = new ArrayList<>();
        if (values == null) {
            return strings;
        }
        for (JsonNode value : values) {
            if (!value.isString()) {
                throw ApiException.badRequest("'" + field + "' must be an array of strings");
            }
            strings.add(value.stringValue());
        }
        return strings;
    }
}
