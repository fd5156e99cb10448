package io.regina.api;

/**
 * The {@code code} of an error answer that is not a business rejection (those carry their
 * {@link io.regina.queue.Rejection} name): refusals the HTTP layer decides itself.
 * docs/api-extensions.md lists them with their statuses; a name, once sent, is never reused.
 */
enum ApiCode {
    /** A body or query that does not read: malformed JSON, a field missing, of the wrong type or out of range. */
    BAD_REQUEST,
    /** A body sent with a content type other than JSON. */
    UNSUPPORTED_MEDIA_TYPE,
    /** A body past spring.http.codecs.max-in-memory-size, refused before it is read. */
    PAYLOAD_TOO_LARGE,
    /** The command was not committed within the broker's commit timeout. */
    TIMEOUT,
    /** The broker cannot serve the request now (no leader, shutting down, an unexpected failure). */
    UNAVAILABLE
}
