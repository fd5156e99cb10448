package io.regina.config;

import org.springframework.security.oauth2.core.DelegatingOAuth2TokenValidator;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jose.jws.MacAlgorithm;
import org.springframework.security.oauth2.jose.jws.SignatureAlgorithm;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.JwtIssuerValidator;
import org.springframework.security.oauth2.jwt.JwtTimestampValidator;
import org.springframework.security.oauth2.jwt.NimbusReactiveJwtDecoder;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.crypto.spec.SecretKeySpec;

/**
 * The token check of {@code regina.auth.*}, built from Spring Security's Nimbus decoder: the signature
 * (HS256 with the shared secret; RS256 or EdDSA with a JWKS URL or a static key), then {@code exp}/{@code nbf}
 * within the clock skew, and {@code iss} and {@code aud} when configured. A misconfiguration stops
 * the node at startup, with the key to fix.
 */
final class ApiTokens {
    /** HS256 needs a 256-bit key (RFC 7518 3.2); Nimbus refuses a shorter one on every token. */
    private static final int MIN_SECRET_BYTES = 32;

    private ApiTokens() {
    }

    static NimbusReactiveJwtDecoder decoder(AuthProperties settings) {
        NimbusReactiveJwtDecoder decoder = signatures(settings);
        decoder.setJwtValidator(validator(settings));
        return decoder;
    }

    private static NimbusReactiveJwtDecoder signatures(AuthProperties settings) {
        String algorithm = settings.getAlgorithm() == null ? "" : settings.getAlgorithm().trim().toUpperCase(Locale.ROOT);
        if (algorithm.equals("HS256")) {
            byte[] secret = settings.getSecret().getBytes(StandardCharsets.UTF_8);
            if (secret.length < MIN_SECRET_BYTES) {
                throw new IllegalStateException("regina.auth.secret (JWT_SECRET) must be at least " + MIN_SECRET_BYTES
                        + " bytes for HS256");
            }
            return NimbusReactiveJwtDecoder.withSecretKey(new SecretKeySpec(secret, "HmacSHA256"))
                    .macAlgorithm(MacAlgorithm.HS256).build();
        }
        if (algorithm.equals("RS256")) {
            if (!settings.getJwksUrl().isBlank()) {
                return NimbusReactiveJwtDecoder.withJwkSetUri(settings.getJwksUrl().trim())
                        .jwsAlgorithm(SignatureAlgorithm.RS256).build();
            }
            if (!settings.getPublicKey().isBlank()) {
                return NimbusReactiveJwtDecoder.withPublicKey(rsaKey(settings.getPublicKey()))
                        .signatureAlgorithm(SignatureAlgorithm.RS256).build();
            }
            throw new IllegalStateException("RS256 needs regina.auth.jwks-url (JWT_JWKS_URL) "
                    + "or regina.auth.public-key (JWT_PUBLIC_KEY)");
        }
        if (algorithm.equals("EDDSA")) {
            if (!settings.getJwksUrl().isBlank()) {
                return new NimbusReactiveJwtDecoder(EdDsaTokens.fromJwksUrl(settings.getJwksUrl().trim()));
            }
            if (!settings.getPublicKey().isBlank()) {
                return new NimbusReactiveJwtDecoder(EdDsaTokens.fromPublicKey(settings.getPublicKey()));
            }
            throw new IllegalStateException("EdDSA needs regina.auth.jwks-url (JWT_JWKS_URL) "
                    + "or regina.auth.public-key (JWT_PUBLIC_KEY)");
        }
        throw new IllegalStateException("regina.auth.algorithm (JWT_ALGORITHM) must be HS256, RS256 or EdDSA, not '"
                + settings.getAlgorithm() + "'");
    }

    private static RSAPublicKey rsaKey(String pem) {
        String base64 = pem.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
        try {
            return (RSAPublicKey) KeyFactory.getInstance("RSA")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (GeneralSecurityException | IllegalArgumentException | ClassCastException e) {
            throw new IllegalStateException("regina.auth.public-key (JWT_PUBLIC_KEY) is not an RSA public key in PEM", e);
        }
    }

    private static OAuth2TokenValidator<Jwt> validator(AuthProperties settings) {
        List<OAuth2TokenValidator<Jwt>> checks = new ArrayList<>();
        checks.add(new JwtTimestampValidator(Duration.ofSeconds(settings.getClockSkewSeconds())));
        if (!settings.getIssuer().isBlank()) {
            checks.add(new JwtIssuerValidator(settings.getIssuer().trim()));
        }
        if (!settings.getAudience().isBlank()) {
            String audience = settings.getAudience().trim();
            checks.add(new JwtClaimValidator<Collection<String>>(JwtClaimNames.AUD,
                    aud -> aud != null && aud.contains(audience)));
        }
        return new DelegatingOAuth2TokenValidator<>(checks);
    }
}
