package io.regina.api;

import io.regina.api.dto.ErrorResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebInputException;

import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

/**
 * The one place where failures become HTTP answers: client mistakes 4xx, broker trouble 503. The
 * annotated controllers reach it as their advice, the functional hot routes through {@link #answer}.
 */
@RestControllerAdvice(basePackages = "io.regina.api")
class ApiErrors {
    private static final Logger log = LoggerFactory.getLogger(ApiErrors.class);

    @ExceptionHandler(Exception.class)
    ResponseEntity<ErrorResponse> handle(Exception e) {
        return answer(e);
    }

    ResponseEntity<ErrorResponse> answer(Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof ApiException api) {
            return error(api.status(), api.code(), api.getMessage());
        }
        if (cause instanceof DataBufferLimitException) {
            return tooLarge();
        }
        if (cause instanceof ServerWebInputException input) {
            return unreadable(input);
        }
        if (cause instanceof ResponseStatusException status) {
            return status(status);
        }
        if (cause instanceof TimeoutException) {
            return error(HttpStatus.SERVICE_UNAVAILABLE, ApiCode.TIMEOUT,
                    "The broker did not commit the request in time; retry");
        }
        log.warn("Request failed", cause);
        return error(HttpStatus.SERVICE_UNAVAILABLE, ApiCode.UNAVAILABLE,
                "The broker cannot serve the request now: " + firstLine(cause.getMessage()));
    }

    /**
     * A body past spring.http.codecs.max-in-memory-size (Spring answers it with a 413 status exception,
     * or lets the buffer limit escape). A 5xx here would make Queen's clients retry the same body three
     * times; a bare "413 CONTENT_TOO_LARGE" would not say what to do.
     */
    private static ResponseEntity<ErrorResponse> tooLarge() {
        return error(HttpStatus.CONTENT_TOO_LARGE, ApiCode.PAYLOAD_TOO_LARGE,
                "The request body is too large for one request (see spring.http.codecs.max-in-memory-size); "
                        + "send fewer or smaller messages per request");
    }

    private static ResponseEntity<ErrorResponse> unreadable(ServerWebInputException e) {
        Throwable cause = e.getMostSpecificCause();
        if (cause instanceof DataBufferLimitException) {
            return tooLarge();
        }
        String reason = e.getReason() == null ? "Malformed request" : e.getReason();
        String detail = cause != null && cause != e ? ": " + firstLine(cause.getMessage()) : "";
        return error(HttpStatus.BAD_REQUEST, ApiCode.BAD_REQUEST, reason + detail
                + " (send a JSON object with Content-Type: application/json)");
    }

    private static ResponseEntity<ErrorResponse> status(ResponseStatusException e) {
        HttpStatusCode status = e.getStatusCode();
        if (status.value() == HttpStatus.CONTENT_TOO_LARGE.value()) {
            return tooLarge();
        }
        ApiCode code = status.value() == HttpStatus.UNSUPPORTED_MEDIA_TYPE.value() ? ApiCode.UNSUPPORTED_MEDIA_TYPE
                : status.is5xxServerError() ? ApiCode.UNAVAILABLE : ApiCode.BAD_REQUEST;
        return error(status, code.name(), e.getReason() == null ? status.toString() : e.getReason());
    }

    private static ResponseEntity<ErrorResponse> error(HttpStatusCode status, ApiCode code, String message) {
        return error(status, code.name(), message);
    }

    private static ResponseEntity<ErrorResponse> error(HttpStatusCode status, String code, String message) {
        return ResponseEntity.status(status).body(new ErrorResponse(message, code));
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
