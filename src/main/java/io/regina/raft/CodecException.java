package io.regina.raft;

/**
 * A log entry, a client request, a reply or a snapshot that cannot be decoded: unknown format
 * version, unknown op code, truncated or corrupt bytes. The message says which.
 */
public class CodecException extends RuntimeException {

    public CodecException(String message) {
        super(message);
    }

    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
