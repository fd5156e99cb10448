package io.regina.api;

/** What a queue or partition name may be: short, printable, usable in a URL path segment. */
final class QueueNames {
    static final int MAX_LENGTH = 255;

    private QueueNames() {
    }

    static String check(String name) {
        return check(name, "queue");
    }

    static String check(String name, String field) {
        if (name.length() > MAX_LENGTH) {
            throw ApiException.badRequest("'" + field + "' must be at most " + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == '/' || c == 0x7f) {
                throw ApiException.badRequest("'" + field + "' must not contain '/' or control characters");
            }
        }
        return name;
    }
}
