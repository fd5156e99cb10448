package io.regina.config;

import org.springframework.core.convert.converter.Converter;
import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import reactor.core.publisher.Mono;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A verified token's roles as Queen reads them: the single-value claim ({@code role}) and the array
 * claim ({@code roles}), each value one of the configured role names. The token gets the authority of
 * its highest level and of every level below it; a token with no known role gets none (403 everywhere).
 */
final class ApiRoles implements Converter<Jwt, Mono<AbstractAuthenticationToken>> {
    private final AuthProperties settings;

    ApiRoles(AuthProperties settings) {
        this.settings = settings;
    }

    @Override
    public Mono<AbstractAuthenticationToken> convert(Jwt jwt) {
        return Mono.just(new JwtAuthenticationToken(jwt, authorities(jwt), jwt.getSubject()));
    }

    List<GrantedAuthority> authorities(Jwt jwt) {
        ApiAccess highest = null;
        for (String role : roles(jwt)) {
            ApiAccess level = level(role);
            if (level != null && (highest == null || level.allows(highest))) {
                highest = level;
            }
        }
        List<GrantedAuthority> granted = new ArrayList<>();
        for (ApiAccess level : ApiAccess.values()) {
            if (highest != null && highest.allows(level)) {
                granted.add(new SimpleGrantedAuthority(level.authority()));
            }
        }
        return granted;
    }

    private List<String> roles(Jwt jwt) {
        List<String> roles = new ArrayList<>();
        if (jwt.getClaim(settings.getRoleClaim()) instanceof String role) {
            roles.add(role);
        }
        if (jwt.getClaim(settings.getRolesClaim()) instanceof Collection<?> many) {
            for (Object role : many) {
                if (role instanceof String name) {
                    roles.add(name);
                }
            }
        }
        return roles;
    }

    private ApiAccess level(String role) {
        if (role.equals(settings.getRoleAdmin())) {
            return ApiAccess.ADMIN;
        }
        if (role.equals(settings.getRoleReadWrite())) {
            return ApiAccess.READ_WRITE;
        }
        return role.equals(settings.getRoleReadOnly()) ? ApiAccess.READ_ONLY : null;
    }
}
