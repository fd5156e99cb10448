package io.regina.api;

import io.regina.api.dto.ErrorResponse;
import io.regina.queue.Rejection;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;

import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

class ApiErrorsTest {
    private final ApiErrors errors = new ApiErrors();

    @Test
    void aRejectionCarriesItsCatalogueNameAndStatus() {
        assertAnswer(ApiException.of(Rejection.QUEUE_NOT_FOUND, "orders"), 404, "QUEUE_NOT_FOUND",
                "Queue 'orders' does not exist");
        assertAnswer(ApiException.of(Rejection.MEMORY_FULL, 900, 1000), 429, "MEMORY_FULL",
                "The broker's memory is full (900 MiB live of 1000 MiB): consume messages before pushing more");
    }

    @Test
    void aRejectionInsideACompletionExceptionIsStillARejection() {
        assertAnswer(new CompletionException(ApiException.of(Rejection.QUEUE_FULL, "q", 1, 1)), 429, "QUEUE_FULL",
                "Queue 'q' is full: it holds 1 of maxSize 1 messages; consume some or raise maxSize");
    }

    @Test
    void badInputIsBadRequest() {
        assertAnswer(ApiException.badRequest("'items' must be an array"), 400, "BAD_REQUEST",
                "'items' must be an array");
        assertAnswer(new ServerWebInputException("Failed to read HTTP message", null,
                        new IllegalStateException("Unrecognized token 'not'\n at [Source: x]")), 400, "BAD_REQUEST",
                "Failed to read HTTP message: Unrecognized token 'not' (send a JSON object with Content-Type: "
                        + "application/json)");
    }

    @Test
    void aBodyPastTheBufferLimitIsPayloadTooLarge() {
        String message = "The request body is too large for one request (see spring.http.codecs.max-in-memory-size); "
                + "send fewer or smaller messages per request";
        assertAnswer(new DataBufferLimitException("limit"), 413, "PAYLOAD_TOO_LARGE", message);
        assertAnswer(new ServerWebInputException("Failed to read HTTP message", null,
                new DataBufferLimitException("limit")), 413, "PAYLOAD_TOO_LARGE", message);
    }

    @Test
    void anotherContentTypeIsUnsupportedMediaType() {
        assertAnswer(new UnsupportedMediaTypeStatusException(MediaType.TEXT_PLAIN, List.of(MediaType.APPLICATION_JSON)),
                415, "UNSUPPORTED_MEDIA_TYPE", "Content type 'text/plain' not supported");
    }

    @Test
    void brokerTroubleIsUnavailableAndATimeoutSaysRetry() {
        assertAnswer(new TimeoutException(), 503, "TIMEOUT", "The broker did not commit the request in time; retry");
        assertAnswer(new IllegalStateException("no leader\nmore"), 503, "UNAVAILABLE",
                "The broker cannot serve the request now: no leader");
    }

    private void assertAnswer(Exception e, int status, String code, String message) {
        ResponseEntity<ErrorResponse> answer = errors.answer(e);
        assertThat(answer.getStatusCode().value()).isEqualTo(status);
        assertThat(answer.getBody()).isEqualTo(new ErrorResponse(message, code));
    }
}
