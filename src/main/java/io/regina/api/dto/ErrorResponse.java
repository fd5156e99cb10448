package io.regina.api.dto;

/** Every error answer: what is wrong and how to fix it. */
public record ErrorResponse(String error) {
}
