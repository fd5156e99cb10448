package io.regina.client;

/** A lease renewal's outcome; {@code error} is {@code Lease not found}, {@code Lease already expired} or {@code Lease not active}. */
public record LeaseExtension(int index, String leaseId, boolean success, String error, String expiresAt) {
}
