package io.regina.queue;

import java.util.Locale;
import java.util.Optional;

/** What a worker says about a delivered message. */
public enum AckStatus {
    COMPLETED,
    FAILED,
    DLQ,
    /** A hand-back: the delivery is not counted and the retry counter is unchanged. */
    RETRY,
    /** Laravel's {@code release()}: back to the queue after a delay, attempt counted. */
    RELEASE;

    public static Optional<AckStatus> parse(String text) {
        if (text == null) {
            return Optional.of(COMPLETED);
        }
        for (AckStatus status : values()) {
            if (status.name().equals(text.toUpperCase(Locale.ROOT))) {
                return Optional.of(status);
            }
        }
        return Optional.empty();
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
