package io.regina.api;

import io.regina.queue.QueueOptions;
import tools.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.Map;

/** Queue options to and from JSON: all fifteen of Queen's plus {@code stripes}, omitted ones at their defaults. */
final class QueueOptionsJson {
    private QueueOptionsJson() {
    }

    static QueueOptions read(JsonNode options) {
        QueueOptions d = QueueOptions.defaults();
        if (options == null || options.isNull()) {
            return d;
        }
        if (!options.isObject()) {
            throw ApiException.badRequest("'options' must be an object");
        }
        int max = Integer.MAX_VALUE;
        return new QueueOptions(
                JsonFields.integer(options, "leaseTime", d.leaseTime(), 1, max),
                JsonFields.integer(options, "maxSize", d.maxSize(), 0, max),
                JsonFields.integer(options, "ttl", d.ttl(), 0, max),
                JsonFields.integer(options, "retryLimit", d.retryLimit(), 0, max),
                JsonFields.integer(options, "retryDelay", d.retryDelay(), 0, max),
                JsonFields.bool(options, "deadLetterQueue", d.deadLetterQueue()),
                JsonFields.bool(options, "dlqAfterMaxRetries", d.dlqAfterMaxRetries()),
                JsonFields.integer(options, "priority", d.priority(), Integer.MIN_VALUE, max),
                JsonFields.integer(options, "delayedProcessing", d.delayedProcessing(), 0, max),
                JsonFields.integer(options, "windowBuffer", d.windowBuffer(), 0, max),
                JsonFields.integer(options, "retentionSeconds", d.retentionSeconds(), 0, max),
                JsonFields.integer(options, "completedRetentionSeconds", d.completedRetentionSeconds(), 0, max),
                JsonFields.bool(options, "retentionEnabled", d.retentionEnabled()),
                JsonFields.bool(options, "encryptionEnabled", d.encryptionEnabled()),
                JsonFields.integer(options, "maxWaitTimeSeconds", d.maxWaitTimeSeconds(), 0, max),
                JsonFields.integer(options, "stripes", d.stripes(), 1, QueueOptions.MAX_STRIPES));
    }

    static Map<String, Object> write(QueueOptions o) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("leaseTime", o.leaseTime());
        json.put("maxSize", o.maxSize());
        json.put("ttl", o.ttl());
        json.put("retryLimit", o.retryLimit());
        json.put("retryDelay", o.retryDelay());
        json.put("deadLetterQueue", o.deadLetterQueue());
        json.put("dlqAfterMaxRetries", o.dlqAfterMaxRetries());
        json.put("priority", o.priority());
        json.put("delayedProcessing", o.delayedProcessing());
        json.put("windowBuffer", o.windowBuffer());
        json.put("retentionSeconds", o.retentionSeconds());
        json.put("completedRetentionSeconds", o.completedRetentionSeconds());
        json.put("retentionEnabled", o.retentionEnabled());
        json.put("encryptionEnabled", o.encryptionEnabled());
        json.put("maxWaitTimeSeconds", o.maxWaitTimeSeconds());
        json.put("stripes", o.stripes());
        return json;
    }
}
