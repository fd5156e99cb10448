package io.regina.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code regina.auth.*}: JWT bearer tokens on the API, off by default as in Queen. Each key also reads
 * Queen's environment variable (application.properties: {@code JWT_ENABLED}, {@code JWT_SECRET}, …).
 */
@ConfigurationProperties(prefix = "regina.auth")
public class AuthProperties {

    /** Require a valid token on {@code /api/**}. */
    private boolean enabled;

    /** {@code HS256} (with {@link #secret}), {@code RS256} or {@code EdDSA} (Ed25519; with {@link #jwksUrl} or {@link #publicKey}). */
    private String algorithm = "HS256";

    /** The HS256 shared secret, at least 32 bytes. */
    private String secret = "";

    /** Where the RS256 or EdDSA keys are published (a JWKS document). */
    private String jwksUrl = "";

    /** A static public key, PEM ({@code -----BEGIN PUBLIC KEY-----}); for EdDSA also an OKP JWK. */
    private String publicKey = "";

    /** The {@code iss} a token must carry; empty accepts any. */
    private String issuer = "";

    /** A value the token's {@code aud} must contain; empty accepts any. */
    private String audience = "";

    /** How far {@code exp} and {@code nbf} may be off. */
    private long clockSkewSeconds = 30;

    /** The claim holding one role. */
    private String roleClaim = "role";

    /** The claim holding an array of roles. */
    private String rolesClaim = "roles";

    private String roleAdmin = "admin";

    private String roleReadWrite = "read-write";

    private String roleReadOnly = "read-only";

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getAlgorithm() {
        return algorithm;
    }

    public void setAlgorithm(String algorithm) {
        this.algorithm = algorithm;
    }

    public String getSecret() {
        return secret;
    }

    public void setSecret(String secret) {
        this.secret = secret;
    }

    public String getJwksUrl() {
        return jwksUrl;
    }

    public void setJwksUrl(String jwksUrl) {
        this.jwksUrl = jwksUrl;
    }

    public String getPublicKey() {
        return publicKey;
    }

    public void setPublicKey(String publicKey) {
        this.publicKey = publicKey;
    }

    public String getIssuer() {
        return issuer;
    }

    public void setIssuer(String issuer) {
        this.issuer = issuer;
    }

    public String getAudience() {
        return audience;
    }

    public void setAudience(String audience) {
        this.audience = audience;
    }

    public long getClockSkewSeconds() {
        return clockSkewSeconds;
    }

    public void setClockSkewSeconds(long clockSkewSeconds) {
        this.clockSkewSeconds = clockSkewSeconds;
    }

    public String getRoleClaim() {
        return roleClaim;
    }

    public void setRoleClaim(String roleClaim) {
        this.roleClaim = roleClaim;
    }

    public String getRolesClaim() {
        return rolesClaim;
    }

    public void setRolesClaim(String rolesClaim) {
        this.rolesClaim = rolesClaim;
    }

    public String getRoleAdmin() {
        return roleAdmin;
    }

    public void setRoleAdmin(String roleAdmin) {
        this.roleAdmin = roleAdmin;
    }

    public String getRoleReadWrite() {
        return roleReadWrite;
    }

    public void setRoleReadWrite(String roleReadWrite) {
        this.roleReadWrite = roleReadWrite;
    }

    public String getRoleReadOnly() {
        return roleReadOnly;
    }

    public void setRoleReadOnly(String roleReadOnly) {
        this.roleReadOnly = roleReadOnly;
    }
}
