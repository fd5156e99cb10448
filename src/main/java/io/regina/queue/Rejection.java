package io.regina.queue;

/**
 * The catalogue of business rejections. Each has a stable code and the HTTP status it maps to;
 * apply returns them as outcomes rather than throwing.
 */
public enum Rejection {
    INVALID_REQUEST(1, 400),
    NOT_FOUND(2, 404),
    QUEUE_FULL(3, 429),
    MEMORY_FULL(4, 429),
    CONFLICT(5, 409),
    TOO_LARGE(6, 413);

    private final int code;
    private final int httpStatus;

    Rejection(int code, int httpStatus) {
        this.code = code;
        this.httpStatus = httpStatus;
    }

    public int code() {
        return code;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public static Rejection ofCode(int code) {
        for (Rejection rejection : values()) {
            if (rejection.code == code) {
                return rejection;
            }
        }
        throw new IllegalArgumentException("unknown rejection code " + code);
    }
}
