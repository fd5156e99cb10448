package io.regina.api.dto;

/** The body of {@code POST /api/v1/lease/{leaseId}/extend}; without {@code seconds}, 60. */
public record LeaseExtendRequest(Long seconds) {
}
