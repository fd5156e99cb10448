package io.regina.worker.matrix;

import java.util.LinkedHashMap;
import java.util.Map;

/** The two ways of running every lane of the failure matrix: the supervisor options they add. */
enum Profile {
    SYNC("prefetch 1, sync acks", Map.of("--prefetch", "1")),
    ASYNC("prefetch 4, async acks, pop-ahead", flags());

    private final String description;
    private final Map<String, String> options;

    Profile(String description, Map<String, String> options) {
        this.description = description;
        this.options = options;
    }

    String description() {
        return description;
    }

    Map<String, String> options() {
        return options;
    }

    private static Map<String, String> flags() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("--prefetch", "4");
        options.put("--async-acks", null);
        options.put("--pop-ahead", null);
        return options;
    }
}
