package io.regina.worker;

import io.regina.client.Message;
import io.regina.client.ReginaClient;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.Map;

/**
 * A delivery read as a dispatched job ({@code {"job": kind, "data": …}}, {@link ReginaClient#dispatch}): its
 * kind and its data bound to the kind's payload type, or the reason it cannot run at all (no such kind,
 * data that does not bind), which fails it for good since no retry would change it.
 */
final class JsonJob {
    private static final JobKind<JsonNode> UNKNOWN = JobKind.of("unknown", JsonNode.class, (payload, job) -> { });

    private final String kindName;
    private final JobKind<?> kind;
    private final Object payload;
    private final String refusal;

    private JsonJob(String kindName, JobKind<?> kind, Object payload, String refusal) {
        this.kindName = kindName;
        this.kind = kind;
        this.payload = payload;
        this.refusal = refusal;
    }

    static JsonJob read(JsonMapper json, Message message, Map<String, JobKind<?>> kinds) {
        JsonNode data = message.data();
        JsonNode name = data == null ? null : data.get(ReginaClient.JOB_FIELD);
        if (name == null || !name.isString()) {
            return new JsonJob("unknown", UNKNOWN, null, "not a dispatched job: the payload has no '"
                    + ReginaClient.JOB_FIELD + "' field naming its kind");
        }
        JobKind<?> kind = kinds.get(name.asString());
        if (kind == null) {
            return new JsonJob(name.asString(), UNKNOWN, null, "no handler for job kind '" + name.asString()
                    + "' on this worker (it runs " + kinds.keySet() + ")");
        }
        JsonNode payload = data.get(ReginaClient.DATA_FIELD);
        try {
            return new JsonJob(kind.name(), kind, payload == null || payload.isNull() ? null
                    : json.treeToValue(payload, kind.payloadType()), null);
        } catch (JacksonException e) {
            return new JsonJob(kind.name(), kind, null, "the data of " + kind.name() + " does not bind to "
                    + kind.payloadType().getSimpleName() + ": " + e.getOriginalMessage());
        }
    }

    String kindName() {
        return kindName;
    }

    JobKind<?> kind() {
        return kind;
    }

    /** Why it cannot run, or null. */
    String refusal() {
        return refusal;
    }

    @SuppressWarnings("unchecked")
    void run(JobContext context) throws Exception {
        ((JobHandler<Object>) kind.handler()).handle(payload, context);
    }
}
