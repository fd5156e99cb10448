package io.regina.config;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.OctetKeyPair;
import org.junit.jupiter.api.Test;
import org.springframework.security.oauth2.jwt.BadJwtException;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;

import java.util.Base64;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code regina.auth.algorithm=EdDSA} with a static public key, as an OKP JWK or as PEM. */
class EdDsaTokensTest {
    private static final OctetKeyPair KEY = ApiAuthEdDsaIT.generate("k1");

    private static ReactiveJwtDecoder decoder(String publicKey) {
        AuthProperties settings = new AuthProperties();
        settings.setAlgorithm("EdDSA");
        settings.setPublicKey(publicKey);
        return ApiTokens.decoder(settings);
    }

    /** The key as an X.509 SubjectPublicKeyInfo (RFC 8410): a fixed 12-byte DER prefix, then the 32 key bytes. */
    private static String pem(OctetKeyPair key) {
        byte[] prefix = HexFormat.of().parseHex("302a300506032b6570032100");
        byte[] x = key.getX().decode();
        byte[] spki = new byte[prefix.length + x.length];
        System.arraycopy(prefix, 0, spki, 0, prefix.length);
        System.arraycopy(x, 0, spki, prefix.length, x.length);
        return "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(spki) + "\n-----END PUBLIC KEY-----\n";
    }

    @Test
    void aTokenSignedWithTheKeyIsAcceptedWithTheKeyAsJwkOrPem() throws Exception {
        String token = ApiAuthEdDsaIT.token(KEY, JWSAlgorithm.EdDSA, "read-write");
        assertThat(decoder(KEY.toPublicJWK().toJSONString()).decode(token).block().getSubject()).isEqualTo("svc");
        assertThat(decoder(pem(KEY)).decode(token).block().getClaimAsString("role")).isEqualTo("read-write");
    }

    @Test
    void aTokenSignedWithAnotherKeyIsRefused() throws Exception {
        String token = ApiAuthEdDsaIT.token(ApiAuthEdDsaIT.generate("k1"), JWSAlgorithm.EdDSA, "read-write");
        assertThatThrownBy(() -> decoder(pem(KEY)).decode(token).block()).isInstanceOf(BadJwtException.class);
    }

    @Test
    void aKeyThatIsNotEd25519StopsTheNodeAtStartup() {
        assertThatThrownBy(() -> decoder("{\"kty\":\"oct\",\"k\":\"c2VjcmV0\"}"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("JWT_PUBLIC_KEY");
        assertThatThrownBy(() -> decoder("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("JWT_PUBLIC_KEY");
        AuthProperties neither = new AuthProperties();
        neither.setAlgorithm("EdDSA");
        assertThatThrownBy(() -> ApiTokens.decoder(neither)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("EdDSA needs");
    }
}
