package io.regina.config;

import io.regina.api.PlainPath;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.security.web.server.WebFilterChainProxy;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import java.util.List;

/**
 * Spring Security's filter, except on the hot Queen API paths, which no security chain matches
 * (see {@link DashboardSecurityConfiguration}): there it would only wrap the exchange in its firewall
 * and find no chain, per request. Only a GET or POST whose raw path is one of those routes, spelled
 * with plain characters the firewall always lets through (no "//", "..", ";", "%" or "\"), skips it;
 * every other request, the dashboard's included, goes through the real proxy unchanged. Installed only
 * while API authentication is off: with {@code regina.auth.enabled} the API's chain must see every request.
 */
final class ApiSecurityBypass extends WebFilterChainProxy implements Ordered {
    private static final List<String> EXACT = List.of("/api/v1/push", "/api/v1/ack", "/api/v1/ack/batch",
            "/api/v1/transaction", "/health");
    private static final List<String> PREFIXES = List.of("/api/v1/pop/queue/", "/api/v1/ack/pop/queue/");

    /** WebFluxSecurityConfiguration.WEB_FILTER_CHAIN_FILTER_ORDER (that class is not public). */
    private static final int ORDER = -100;

    private final WebFilterChainProxy security;

    ApiSecurityBypass(WebFilterChainProxy security) {
        super(List.of());
        this.security = security;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        return hot(exchange.getRequest()) ? chain.filter(exchange) : security.filter(exchange, chain);
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    static boolean hot(ServerHttpRequest request) {
        HttpMethod method = request.getMethod();
        if (method != HttpMethod.GET && method != HttpMethod.POST) {
            return false;
        }
        String path = request.getURI().getRawPath();
        return PlainPath.is(path) && (EXACT.contains(path) || PREFIXES.stream().anyMatch(path::startsWith));
    }
}
