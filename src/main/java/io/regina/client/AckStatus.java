package io.regina.client;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How a delivery ends (API.md A4, C3): {@code completed}; {@code failed} (charged: the broker's retry, or
 * with {@code retryAfterMs} back after that delay); {@code retry} (an uncharged hand-back: the attempt is
 * not counted); {@code release} (back after {@code delayMs}, the attempt counted); {@code dlq} (straight
 * to the failed jobs).
 */
public enum AckStatus {
    COMPLETED, FAILED, RETRY, RELEASE, DLQ;

    @JsonValue
    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
