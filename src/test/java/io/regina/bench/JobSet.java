package io.regina.bench;

import java.nio.charset.StandardCharsets;

/**
 * The jobs of one lane run: ids {@code prefix + i} for i in [0, count), each with the same 330-byte JSON
 * payload shape on every system, {@code {"id":"…","attempts":0,"pad":"xx…"}} (Laravel's queue algorithm
 * needs {@code attempts} inside the payload).
 */
final class JobSet {

    static final int PAYLOAD_BYTES = 330;

    private final String prefix;
    private final int count;

    JobSet(String prefix, int count) {
        this.prefix = prefix;
        this.count = count;
    }

    int count() {
        return count;
    }

    String id(int index) {
        return prefix + index;
    }

    /** The index of an id of this set, or -1 for an id that is not one. */
    int index(String id) {
        if (id == null || !id.startsWith(prefix)) {
            return -1;
        }
        try {
            int i = Integer.parseInt(id, prefix.length(), id.length(), 10);
            return i >= 0 && i < count ? i : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    String payload(int index) {
        String head = "{\"id\":\"" + id(index) + "\",\"attempts\":0,\"pad\":\"";
        return head + "x".repeat(PAYLOAD_BYTES - head.length() - 2) + "\"}";
    }

    byte[] payloadBytes(int index) {
        return payload(index).getBytes(StandardCharsets.UTF_8);
    }

    /** The id inside a payload (or a Laravel-re-encoded copy of it), without a JSON parser. */
    static String idInPayload(String json) {
        int at = json.indexOf("\"id\":\"");
        if (at < 0) {
            return null;
        }
        int from = at + 6;
        int to = json.indexOf('"', from);
        return to < 0 ? null : json.substring(from, to);
    }
}
