package io.regina.config;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.Ed25519Signer;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.gen.OctetKeyPairGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.regina.testing.JwksServer;
import io.regina.testing.TestNode;
import io.regina.testing.TestTokens;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** EdDSA (Ed25519) tokens checked against an OKP JWKS document that the test itself serves, as {@link ApiAuthJwksIT} does for RS256. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "regina.auth.enabled=true", "regina.auth.algorithm=EdDSA"})
class ApiAuthEdDsaIT {
    private static final OctetKeyPair KEY = generate("ed-published");
    private static final OctetKeyPair OTHER = generate("ed-published");
    private static JwksServer jwks;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void node(DynamicPropertyRegistry registry) {
        TestNode.register(registry);
        jwks = new JwksServer(KEY.toPublicJWK());
        registry.add("regina.auth.jwks-url", jwks::url);
    }

    @AfterAll
    static void stopJwks() {
        jwks.close();
    }

    @Test
    void aTokenSignedWithThePublishedKeyPushesAndOthersDoNot() throws Exception {
        String body = "{\"items\":[{\"queue\":\"eddsa-" + UUID.randomUUID().toString().substring(0, 8) + "\"}]}";
        assertThat(push(body, token(KEY, JWSAlgorithm.EdDSA, "read-write")).statusCode()).isEqualTo(201);
        assertThat(push(body, token(KEY, JWSAlgorithm.Ed25519, "read-write")).statusCode())
                .as("RFC 9864's name for the same signature").isEqualTo(201);
        assertThat(push(body, token(KEY, JWSAlgorithm.EdDSA, "read-only")).statusCode()).isEqualTo(403);
        assertThat(push(body, token(OTHER, JWSAlgorithm.EdDSA, "read-write")).statusCode())
                .as("same kid, another key").isEqualTo(401);
        assertThat(push(body, TestTokens.hs256("an-hs256-secret-of-at-least-32-bytes", "svc", "read-write"))
                .statusCode()).as("another algorithm").isEqualTo(401);
    }

    private HttpResponse<String> push(String body, String token) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/api/v1/push")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String token(OctetKeyPair key, JWSAlgorithm algorithm, String role) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(algorithm).keyID(key.getKeyID()).build(),
                new JWTClaimsSet.Builder().subject("svc").claim("role", role)
                        .expirationTime(Date.from(Instant.now().plusSeconds(600))).build());
        jwt.sign(new Ed25519Signer(key));
        return jwt.serialize();
    }

    static OctetKeyPair generate(String kid) {
        try {
            return new OctetKeyPairGenerator(Curve.Ed25519).keyID(kid).generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
