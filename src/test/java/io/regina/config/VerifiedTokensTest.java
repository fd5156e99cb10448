package io.regina.config;

import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.Jwt;
import reactor.core.publisher.Mono;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VerifiedTokensTest {
    private static final Instant START = Instant.parse("2026-01-02T03:04:05Z");

    private Instant now = START;
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };
    private final AtomicInteger checks = new AtomicInteger();

    private static Jwt jwt(Instant expires) {
        return Jwt.withTokenValue("t").header("alg", "HS256").subject("s").issuedAt(START).expiresAt(expires).build();
    }

    private VerifiedTokens tokens(Instant expires) {
        return new VerifiedTokens(token -> {
            checks.incrementAndGet();
            return Mono.just(jwt(expires));
        }, clock);
    }

    @Test
    void aTokenIsCheckedOncePerTtl() {
        VerifiedTokens tokens = tokens(START.plusSeconds(600));
        tokens.decode("a").block();
        tokens.decode("a").block();
        now = START.plus(VerifiedTokens.TTL).minusMillis(1);
        tokens.decode("a").block();
        assertThat(checks).hasValue(1);
        now = START.plus(VerifiedTokens.TTL);
        tokens.decode("a").block();
        assertThat(checks).hasValue(2);
        tokens.decode("b").block();
        assertThat(checks).hasValue(3);
    }

    @Test
    void aRememberedTokenIsCheckedAgainOnceItExpires() {
        VerifiedTokens tokens = tokens(START.plusSeconds(5));
        tokens.decode("a").block();
        now = START.plus(Duration.ofSeconds(5));
        tokens.decode("a").block();
        assertThat(checks).hasValue(2);
    }

    @Test
    void aRefusedTokenIsNeverRemembered() {
        VerifiedTokens tokens = new VerifiedTokens(token -> {
            checks.incrementAndGet();
            return Mono.error(new BadJwtException("bad signature"));
        }, clock);
        assertThatThrownBy(() -> tokens.decode("a").block()).isInstanceOf(BadJwtException.class);
        assertThatThrownBy(() -> tokens.decode("a").block()).isInstanceOf(BadJwtException.class);
        assertThat(checks).hasValue(2);
    }
}
