package io.regina.api.dto;

/**
 * Every error answer: what is wrong and how to fix it, and a stable code for programs (a Rejection or
 * ApiCode name, see docs/api-extensions.md). Queen's clients read only {@code error}.
 */
public record ErrorResponse(String error, String code) {
}
