package io.regina.api;

/**
 * The {@code code} of an error answer that is not a business rejection (those carry their
 * {@link io.regina.queue.Rejection} name): refusals the HTTP layer decides itself.
 * docs/api-extensions.md lists them with their statuses; a name, once sent, is never reused.
 */
public enum ApiCode {
    /** A body or query that does not read: malformed JSON, a field missing, of the wrong type or out of range. */
    BAD_REQUEST,
    /** A body sent with a content type other than JSON. */
    UNSUPPORTED_MEDIA_TYPE,
    /** A body past spring.http.codecs.max-in-memory-size, refused before it is read. */
    PAYLOAD_TOO_LARGE,
    /** The node's data directory is under its free-space reserve: new messages are refused until space is freed. */
    DISK_FULL,
    /** The command was not committed within the broker's commit timeout. */
    TIMEOUT,
    /** The broker cannot serve the request now (no leader, shutting down, an unexpected failure). */
    UNAVAILABLE,
    /** Auth is on and the request carries no valid bearer token (missing, malformed, bad signature, expired, …). */
    UNAUTHENTICATED,
    /** Auth is on and the token's role may not do this. */
    FORBIDDEN,
    /** The request line (method, path and query) is longer than server.netty.max-initial-line-length. */
    URI_TOO_LONG,
    /** A header, or all of them, past server.max-http-request-header-size. */
    HEADERS_TOO_LARGE,
    /** A membership change names a member the group does not have. */
    MEMBER_NOT_FOUND,
    /** A new member's id or address is already in the group. */
    MEMBER_EXISTS,
    /** Removing the group's last member. */
    LAST_MEMBER,
    /** Another membership change is in progress, or the group changed meanwhile: retry. */
    MEMBERSHIP_CHANGING
}
