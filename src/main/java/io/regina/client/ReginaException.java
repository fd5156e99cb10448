package io.regina.client;

/** Any failure of a {@link ReginaClient} call: the broker refused it, or could not be reached. */
public class ReginaException extends RuntimeException {

    ReginaException(String message, Throwable cause) {
        super(message, cause);
    }
}
