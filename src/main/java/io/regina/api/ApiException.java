package io.regina.api;

import io.regina.queue.Rejection;
import org.springframework.http.HttpStatus;

/**
 * A request the broker refuses, with the status, the message the client sees as {@code error} and the
 * stable {@code code} beside it: a {@link Rejection} name or an {@link ApiCode} name.
 */
final class ApiException extends RuntimeException {
    private final HttpStatus status;
    private final String code;

    private ApiException(HttpStatus status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
    }

    static ApiException badRequest(String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, ApiCode.BAD_REQUEST.name(), message);
    }

    /** A refusal the HTTP layer decides, with its own status. */
    static ApiException of(HttpStatus status, ApiCode code, String message) {
        return new ApiException(status, code.name(), message);
    }

    /** A catalogue refusal whose text is already filled in (as {@code Result.Rejected} carries it). */
    static ApiException rejected(Rejection rejection, String message) {
        return new ApiException(HttpStatus.valueOf(rejection.httpStatus()), rejection.name(), message);
    }

    /** A catalogue refusal decided here, its template filled with {@code args}. */
    static ApiException of(Rejection rejection, Object... args) {
        return rejected(rejection, rejection.message(args));
    }

    HttpStatus status() {
        return status;
    }

    String code() {
        return code;
    }
}
