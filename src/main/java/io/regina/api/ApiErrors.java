package io.regina.api;

import io.regina.api.dto.ErrorResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebInputException;

import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

/** The one place where failures become HTTP answers: client mistakes 4xx, broker trouble 503. */
@RestControllerAdvice(basePackages = "io.regina.api")
class ApiErrors {
    private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);

    /**
     * The answer the handlers below give for {@code e}, for routes that the controller advice does not
     * cover (the functional hot routes); null when no handler would take it.
     */
    ResponseEntity<ErrorResponse> handle(Throwable e) {
        if (e instanceof ApiException api) {
            return refused(api);
        }
        if (e instanceof DataBufferLimitException limit) {
            return tooLarge(limit);
        }
        if (e instanceof ServerWebInputException input) {
            return unreadable(input);
        }
        if (e instanceof ResponseStatusException status) {
            return status(status);
        }
        if (e instanceof Exception other) {
            return unavailable(other);
        }
        return null;
    }

    @ExceptionHandler(ApiException.class)
    ResponseEntity<ErrorResponse> refused(ApiException e) {
        return ResponseEntity.status(e.status()).body(new ErrorResponse(e.getMessage()));
    }

    /**
     * A body past spring.http.codecs.max-in-memory-size (Spring answers it with a 413 status exception,
     * or lets the buffer limit escape). A 5xx here would make Queen's clients retry the same body three
     * times; a bare "413 CONTENT_TOO_LARGE" would not say what to do.
     */
    @ExceptionHandler(DataBufferLimitException.class)
    ResponseEntity<ErrorResponse> tooLarge(DataBufferLimitException e) {
        return tooLarge();
    }

    private static ResponseEntity<ErrorResponse> tooLarge() {
        return ResponseEntity.status(HttpStatus.CONTENT_TOO_LARGE).body(new ErrorResponse(
                "The request body is too large for one request (see spring.http.codecs.max-in-memory-size); "
                        + "send fewer or smaller messages per request"));
    }

    @ExceptionHandler(ServerWebInputException.class)
    ResponseEntity<ErrorResponse> unreadable(ServerWebInputException e) {
        if (e.getMostSpecificCause() instanceof DataBufferLimitException) {
            return tooLarge();
        }
        String reason = e.getReason() == null ? "Malformed request" : e.getReason();
        Throwable cause = e.getMostSpecificCause();
        String detail = cause != null && cause != e ? ": " + firstLine(cause.getMessage()) : "";
        return ResponseEntity.badRequest().body(new ErrorResponse(reason + detail
                + " (send a JSON object with Content-Type: application/json)"));
    }

    @ExceptionHandler(ResponseStatusException.class)
    ResponseEntity<ErrorResponse> status(ResponseStatusException e) {
        if (e.getStatusCode().value() == HttpStatus.CONTENT_TOO_LARGE.value()) {
            return tooLarge();
        }
        return ResponseEntity.status(e.getStatusCode()).body(new ErrorResponse(
                e.getReason() == null ? e.getStatusCode().toString() : e.getReason()));
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ErrorResponse> unavailable(Exception e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof ApiException api) {
            return refused(api);
        }
        if (cause instanceof DataBufferLimitException) {
            return tooLarge();
        }
        if (cause instanceof TimeoutException) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                    .body(new ErrorResponse("The broker did not commit the request in time; retry"));
        }
        log.warn("Request failed", cause);
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
                .body(new ErrorResponse("The broker cannot serve the request now: " + firstLine(cause.getMessage())));
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
