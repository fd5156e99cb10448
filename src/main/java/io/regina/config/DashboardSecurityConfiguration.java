package io.regina.config;

import io.regina.dashboard.DashboardRoutes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.WebFilterChainProxy;
import org.springframework.security.web.server.authentication.RedirectServerAuthenticationFailureHandler;
import org.springframework.security.web.server.authentication.RedirectServerAuthenticationSuccessHandler;
import org.springframework.security.web.server.authentication.logout.RedirectServerLogoutSuccessHandler;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;

import java.net.URI;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Spring Security for the dashboard. Its filter chain matches {@code /dashboard/**},
 * {@code /login} and {@code /logout}; every other path ({@code /health}, {@code /actuator/**}, and the
 * Queen API unless {@code regina.auth.enabled} gives it its own chain, {@link ApiSecurityConfiguration})
 * matches no chain and passes through untouched: no login, no CSRF, no security headers, exactly as
 * without Spring Security.
 *
 * <p>Admins may do everything; viewers may only read (every POST under {@code /dashboard} needs
 * the admin role). Every form carries a CSRF token.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebFluxSecurity
@EnableConfigurationProperties(DashboardProperties.class)
public class DashboardSecurityConfiguration {
    static final String ADMIN = "ADMIN";
    static final String VIEWER = "VIEWER";
    private static final Logger LOG = LoggerFactory.getLogger(DashboardSecurityConfiguration.class);

    @Bean
    SecurityWebFilterChain dashboardSecurity(ServerHttpSecurity http) {
        return http
                .securityMatcher(ServerWebExchangeMatchers.pathMatchers(
                        DashboardRoutes.SECURED.toArray(String[]::new)))
                .authorizeExchange(exchanges -> exchanges
                        .pathMatchers(DashboardRoutes.ASSETS, DashboardRoutes.LOGIN).permitAll()
                        .pathMatchers(HttpMethod.POST, "/dashboard", "/dashboard/**").hasRole(ADMIN)
                        .anyExchange().hasAnyRole(ADMIN, VIEWER))
                .formLogin(form -> form
                        .loginPage(DashboardRoutes.LOGIN)
                        .authenticationSuccessHandler(new RedirectServerAuthenticationSuccessHandler(
                                DashboardRoutes.OVERVIEW))
                        .authenticationFailureHandler(new RedirectServerAuthenticationFailureHandler(
                                DashboardRoutes.LOGIN + "?error")))
                .logout(logout -> {
                    RedirectServerLogoutSuccessHandler done = new RedirectServerLogoutSuccessHandler();
                    done.setLogoutSuccessUrl(URI.create(DashboardRoutes.LOGIN + "?logout"));
                    logout.logoutUrl(DashboardRoutes.LOGOUT).logoutSuccessHandler(done);
                })
                .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                .build();
    }

    /**
     * Spring Security's filter as the API needs it: a request its firewall refuses (a path with "//", "..",
     * ";", "\\" or an encoded "/") gets the API's JSON error instead of an empty 400; and while no chain
     * matches the hot Queen API paths, the firewall is kept off them ({@link ApiSecurityBypass}). With
     * {@code regina.auth.enabled} the API's own chain ({@link ApiSecurityConfiguration}) must see them.
     */
    @Bean
    static BeanPostProcessor apiSecurityBypass(Environment environment) {
        boolean apiSecured = environment.getProperty("regina.auth.enabled", Boolean.class, false);
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (!(bean instanceof WebFilterChainProxy proxy) || bean instanceof ApiSecurityBypass) {
                    return bean;
                }
                proxy.setExchangeRejectedHandler(new RejectedPaths());
                return apiSecured ? proxy : new ApiSecurityBypass(proxy);
            }
        };
    }

    @Bean
    MapReactiveUserDetailsService dashboardUsers(DashboardProperties properties) {
        return new MapReactiveUserDetailsService(users(properties));
    }

    /** The configured users, or one admin with a generated password (logged once) when none is. */
    static List<UserDetails> users(DashboardProperties properties) {
        PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
        List<UserDetails> users = new ArrayList<>();
        for (Map.Entry<String, DashboardProperties.User> entry : properties.getUsers().entrySet()) {
            DashboardProperties.User user = entry.getValue();
            if (user.getPassword() == null || user.getPassword().isBlank()) {
                throw new IllegalStateException("regina.dashboard.users." + entry.getKey()
                        + ".password is required ({bcrypt}… or {noop}…)");
            }
            String role = user.getRole() == null ? "" : user.getRole().trim().toLowerCase(Locale.ROOT);
            if (!role.equals("admin") && !role.equals("viewer")) {
                throw new IllegalStateException("regina.dashboard.users." + entry.getKey()
                        + ".role must be admin or viewer, not '" + user.getRole() + "'");
            }
            users.add(User.withUsername(entry.getKey()).password(user.getPassword())
                    .roles(role.equals("admin") ? ADMIN : VIEWER).build());
        }
        if (users.isEmpty()) {
            byte[] secret = new byte[18];
            new SecureRandom().nextBytes(secret);
            String password = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
            LOG.warn("Dashboard: no user configured (regina.dashboard.users.<name>.password/role); "
                    + "log in at /login as 'admin' with the generated password: {}", password);
            users.add(User.withUsername("admin").password(encoder.encode(password)).roles(ADMIN).build());
        }
        return users;
    }
}
