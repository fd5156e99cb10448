package io.regina.config;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.regina.testing.JwksServer;
import io.regina.testing.TestNode;
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

/** RS256 tokens checked against a JWKS document that the test itself serves, as an identity provider does. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "regina.auth.enabled=true", "regina.auth.algorithm=RS256"})
class ApiAuthJwksIT {
    private static final RSAKey KEY = generate("published");
    private static final RSAKey OTHER = generate("published");
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
    void aTokenSignedWithThePublishedKeyPushesAndOneSignedWithAnotherDoesNot() throws Exception {
        String body = "{\"items\":[{\"queue\":\"jwks-" + UUID.randomUUID().toString().substring(0, 8) + "\"}]}";
        assertThat(push(body, token(KEY)).statusCode()).isEqualTo(201);
        assertThat(push(body, token(OTHER)).statusCode()).as("same kid, another key").isEqualTo(401);
    }

    private HttpResponse<String> push(String body, String token) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/api/v1/push")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String token(RSAKey key) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
                new JWTClaimsSet.Builder().subject("svc").claim("role", "read-write")
                        .expirationTime(Date.from(Instant.now().plusSeconds(600))).build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private static RSAKey generate(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
