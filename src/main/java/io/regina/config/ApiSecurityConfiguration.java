package io.regina.config;

import io.regina.api.ApiCode;
import io.regina.api.ProducerIdentity;
import io.regina.api.dto.ErrorResponse;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationResult;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.ServerAuthenticationEntryPoint;
import org.springframework.security.web.server.authorization.AuthorizationContext;
import org.springframework.security.web.server.authorization.ServerAccessDeniedHandler;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.savedrequest.NoOpServerRequestCache;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;

/**
 * JWT bearer tokens on {@code /api/**} when {@code regina.auth.enabled} (Queen's {@code JWT_ENABLED}); without
 * it this configuration does not exist, no chain matches the API and the hot paths skip Spring Security
 * altogether ({@link ApiSecurityBypass}). The chain is stateless (no session, no CSRF: a bearer token is
 * not sent by a browser on its own), answers in the API's JSON error shape, and lives beside the
 * dashboard's form-login chain, whose paths it does not match. {@code /health} and {@code /actuator/**}
 * are outside {@code /api/**} and stay open, as Queen's health and metrics.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("regina.auth.enabled")
@EnableConfigurationProperties(AuthProperties.class)
class ApiSecurityConfiguration {
    static final String API = "/api/**";

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    SecurityWebFilterChain apiSecurity(ServerHttpSecurity http, AuthProperties settings, JsonMapper json) {
        ServerAuthenticationEntryPoint unauthenticated = (exchange, e) -> write(exchange.getResponse(),
                HttpStatus.UNAUTHORIZED, json.writeValueAsBytes(
                        new ErrorResponse("Authentication required", ApiCode.UNAUTHENTICATED.name())));
        ServerAccessDeniedHandler forbidden = (exchange, e) -> write(exchange.getResponse(), HttpStatus.FORBIDDEN,
                json.writeValueAsBytes(new ErrorResponse("Insufficient permissions", ApiCode.FORBIDDEN.name())));
        return http
                .securityMatcher(ServerWebExchangeMatchers.pathMatchers(API))
                .authorizeExchange(exchanges -> exchanges.anyExchange().access(ApiSecurityConfiguration::decide))
                .oauth2ResourceServer(server -> server
                        .jwt(jwt -> jwt.jwtDecoder(new VerifiedTokens(ApiTokens.decoder(settings), Clock.systemUTC()))
                                .jwtAuthenticationConverter(new ApiRoles(settings)))
                        .authenticationEntryPoint(unauthenticated)
                        .accessDeniedHandler(forbidden))
                .exceptionHandling(handling -> handling.authenticationEntryPoint(unauthenticated)
                        .accessDeniedHandler(forbidden))
                .securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
                .requestCache(cache -> cache.requestCache(NoOpServerRequestCache.getInstance()))
                .csrf(ServerHttpSecurity.CsrfSpec::disable)
                .headers(ServerHttpSecurity.HeaderSpec::disable)
                .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                .formLogin(ServerHttpSecurity.FormLoginSpec::disable)
                .logout(ServerHttpSecurity.LogoutSpec::disable)
                .build();
    }

    /** The token's subject, for push to stamp as {@code producerSub}. */
    @Bean
    ProducerIdentity producerIdentity() {
        return () -> ReactiveSecurityContextHolder.getContext()
                .mapNotNull(context -> context.getAuthentication() == null ? null : context.getAuthentication().getName());
    }

    private static Mono<AuthorizationResult> decide(Mono<Authentication> authentication, AuthorizationContext context) {
        ServerWebExchange exchange = context.getExchange();
        String needed = ApiAccess.required(exchange.getRequest().getMethod(),
                exchange.getRequest().getPath().pathWithinApplication()).authority();
        return authentication.filter(Authentication::isAuthenticated)
                .map(granted -> new AuthorizationDecision(granted.getAuthorities().stream()
                        .map(GrantedAuthority::getAuthority).anyMatch(needed::equals)))
                .cast(AuthorizationResult.class)
                .defaultIfEmpty(new AuthorizationDecision(false));
    }

    private static Mono<Void> write(ServerHttpResponse response, HttpStatus status, byte[] body) {
        response.setStatusCode(status);
        HttpHeaders headers = response.getHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.setContentLength(body.length);
        if (status == HttpStatus.UNAUTHORIZED) {
            headers.set(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        }
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }
}
