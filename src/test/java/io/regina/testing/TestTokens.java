package io.regina.testing;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;

/** Tokens signed the way an identity provider signs them for a broker with {@code regina.auth.secret} (HS256). */
public final class TestTokens {
    private TestTokens() {
    }

    /** A token for {@code subject} with one {@code role} claim, valid for ten minutes. */
    public static String hs256(String secret, String subject, String role) {
        return hs256(new JWTClaimsSet.Builder().subject(subject).claim("role", role).issueTime(new Date())
                .expirationTime(Date.from(Instant.now().plusSeconds(600))).build(), secret);
    }

    public static String hs256(JWTClaimsSet claims, String secret) {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256), claims);
        try {
            jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }
}
