package io.regina.api;

import org.springframework.http.HttpStatus;

/** A request the broker refuses, with the status and the message the client sees as {@code error}. */
final class ApiException extends RuntimeException {
    private final HttpStatus status;

    ApiException(HttpStatus status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    static ApiException badRequest(String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, message);
    }

    static ApiException notFound(String message) {
        return new ApiException(HttpStatus.NOT_FOUND, message);
    }

    HttpStatus status() {
        return status;
    }
}
