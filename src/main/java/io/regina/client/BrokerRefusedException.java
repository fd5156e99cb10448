package io.regina.client;

/**
 * The broker answered a 4xx: the request is wrong (or not allowed, or too much right now for a 429 after
 * the backoff), so sending it again unchanged would not help and the client never retries it.
 * {@link #error()} is the broker's message for people, {@link #code()} its stable name for programs
 * (null on answers that carry none, such as an unknown path).
 */
public final class BrokerRefusedException extends ReginaException {
    private final int status;
    private final String error;
    private final String code;

    BrokerRefusedException(int status, String error, String code, String request) {
        super(request + " refused with " + status + (code == null ? "" : " " + code) + ": " + error, null);
        this.status = status;
        this.error = error;
        this.code = code;
    }

    public int status() {
        return status;
    }

    public String error() {
        return error;
    }

    public String code() {
        return code;
    }
}
