package io.regina.api.dto;

/** The outcome of a lease renewal; {@code expiresAt} is ISO-8601 UTC or null. */
public record LeaseExtendResponseItem(int index, String leaseId, boolean success, String error, String expiresAt) {
}
