package io.regina.config;

import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import reactor.core.publisher.Mono;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers tokens that passed the check for a short while, so a worker that sends the same token on
 * every push, pop and ack pays for its signature and claims once per {@link #TTL}, not per request.
 * A remembered token is used only until {@link #TTL} after its check and never past its own
 * {@code exp} (an expired token is checked again, and refused); a refused token is never remembered.
 * The memory is bounded: when full it starts over.
 */
final class VerifiedTokens implements ReactiveJwtDecoder {
    static final Duration TTL = Duration.ofSeconds(30);
    static final int MAX_TOKENS = 10_000;

    private record Verified(Jwt jwt, Instant until) {
    }

    private final ReactiveJwtDecoder decoder;
    private final Clock clock;
    private final Map<String, Verified> verified = new ConcurrentHashMap<>();

    VerifiedTokens(ReactiveJwtDecoder decoder, Clock clock) {
        this.decoder = decoder;
        this.clock = clock;
    }

    @Override
    public Mono<Jwt> decode(String token) throws JwtException {
        Verified known = verified.get(token);
        Instant now = clock.instant();
        if (known != null && now.isBefore(known.until())) {
            return Mono.just(known.jwt());
        }
        return decoder.decode(token).doOnNext(jwt -> remember(token, jwt, now));
    }

    private void remember(String token, Jwt jwt, Instant now) {
        Instant until = now.plus(TTL);
        if (jwt.getExpiresAt() != null && jwt.getExpiresAt().isBefore(until)) {
            until = jwt.getExpiresAt();
        }
        if (verified.size() >= MAX_TOKENS) {
            verified.clear();
        }
        verified.put(token, new Verified(jwt, until));
    }
}
