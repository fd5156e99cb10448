package io.regina.config;

import io.regina.api.ApiCode;
import io.regina.api.dto.ErrorResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.security.web.server.firewall.ServerExchangeRejectedException;
import org.springframework.security.web.server.firewall.ServerExchangeRejectedHandler;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * A request Spring Security's firewall refuses, as a 400 with the API's JSON error: a queue name with
 * "/" (encoded), "..", ";" or "\" in a path cannot reach any endpoint, and the client should know why.
 */
final class RejectedPaths implements ServerExchangeRejectedHandler {
    private static final byte[] BODY = JsonMapper.shared().writeValueAsBytes(new ErrorResponse(
            "The request path is not allowed: it contains '//', '..', ';', '\\\\' or an encoded '/' "
                    + "(a queue, partition or group in a path cannot use these)", ApiCode.BAD_REQUEST.name()));

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, ServerExchangeRejectedException rejected) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.empty();
        }
        response.setStatusCode(HttpStatus.BAD_REQUEST);
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        response.getHeaders().setContentLength(BODY.length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(BODY)));
    }
}
