package io.regina.config;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyType;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.springframework.core.convert.converter.Converter;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.JwtException;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.net.MalformedURLException;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.spec.X509EncodedKeySpec;
import java.text.ParseException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * The signature check for {@code regina.auth.algorithm=EdDSA} (Ed25519), given to
 * {@code NimbusReactiveJwtDecoder}, which then validates the claims as for HS256 and RS256. Spring
 * Security's decoder builders cannot do it: their key selection turns a JWK into a
 * {@code java.security} key and Nimbus's verifier factory has no Ed25519 case, so an OKP key is never
 * used. This picks the OKP Ed25519 key the header names ({@code kid}) and verifies with Nimbus's own
 * {@link Ed25519Verifier} (on Google Tink). A JWKS URL is read through Nimbus's caching, rate-limited
 * source, whose fetch blocks, so it runs off the event loop.
 */
final class EdDsaTokens implements Converter<JWT, Mono<JWTClaimsSet>> {
    /** RFC 8037's name and RFC 9864's fully specified one for the same Ed25519 signature. */
    private static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.EdDSA, JWSAlgorithm.Ed25519);
    /** The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410); the 32 key bytes follow it. */
    private static final int SPKI_PREFIX = 12;

    private final JWKSource<SecurityContext> keys;
    private final boolean remote;

    private EdDsaTokens(JWKSource<SecurityContext> keys, boolean remote) {
        this.keys = keys;
        this.remote = remote;
    }

    static EdDsaTokens fromJwksUrl(String url) {
        try {
            return new EdDsaTokens(JWKSourceBuilder.<SecurityContext>create(URI.create(url).toURL()).build(), true);
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new IllegalStateException("regina.auth.jwks-url (JWT_JWKS_URL) is not a URL: " + url, e);
        }
    }

    /** {@code key}: an OKP JWK ({@code {"kty":"OKP","crv":"Ed25519","x":…}}) or a PEM public key. */
    static EdDsaTokens fromPublicKey(String key) {
        return new EdDsaTokens(new ImmutableJWKSet<>(new JWKSet(okp(key.trim()))), false);
    }

    private static OctetKeyPair okp(String key) {
        try {
            if (key.startsWith("{")) {
                if (JWK.parse(key) instanceof OctetKeyPair okp && Curve.Ed25519.equals(okp.getCurve())) {
                    return okp.toPublicJWK();
                }
                throw new IllegalStateException("regina.auth.public-key (JWT_PUBLIC_KEY) is a JWK but not an OKP Ed25519 one");
            }
            String base64 = key.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
            byte[] spki = KeyFactory.getInstance("Ed25519")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64))).getEncoded();
            return new OctetKeyPair.Builder(Curve.Ed25519,
                    Base64URL.encode(Arrays.copyOfRange(spki, SPKI_PREFIX, spki.length))).build();
        } catch (ParseException | GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("regina.auth.public-key (JWT_PUBLIC_KEY) is neither an Ed25519 JWK "
                    + "nor an Ed25519 public key in PEM", e);
        }
    }

    @Override
    public Mono<JWTClaimsSet> convert(JWT jwt) {
        if (!(jwt instanceof SignedJWT signed) || !ALGORITHMS.contains(signed.getHeader().getAlgorithm())) {
            return Mono.error(new BadJwtException("Unsupported algorithm of " + jwt.getHeader().getAlgorithm()));
        }
        Mono<List<JWK>> candidates = Mono.fromCallable(() -> keys.get(selector(signed.getHeader()), null));
        return (remote ? candidates.subscribeOn(Schedulers.boundedElastic()) : candidates)
                .onErrorMap(KeySourceException.class, e -> new JwtException("Could not obtain the keys", e))
                .flatMap(candidate -> verified(signed, candidate));
    }

    /** A published set is searched by the header's {@code kid}; a configured key is the key, whatever the kid says. */
    private JWKSelector selector(JWSHeader header) {
        return new JWKSelector(new JWKMatcher.Builder().keyType(KeyType.OKP).curve(Curve.Ed25519)
                .keyID(remote ? header.getKeyID() : null).build());
    }

    private static Mono<JWTClaimsSet> verified(SignedJWT jwt, List<JWK> candidates) {
        try {
            for (JWK key : candidates) {
                if (jwt.verify(new Ed25519Verifier(key.toOctetKeyPair().toPublicJWK()))) {
                    return Mono.just(jwt.getJWTClaimsSet());
                }
            }
            return Mono.error(new BadJwtException("Signed JWT rejected: Invalid signature"));
        } catch (JOSEException | ParseException e) {
            return Mono.error(new BadJwtException("Failed to validate the token", e));
        }
    }
}
