package io.regina.dashboard;

import org.springframework.http.HttpCookie;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseCookie;
import org.springframework.web.server.ServerWebExchange;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * POST-redirect-GET with a one-shot notice: a mutation leaves its outcome in a short-lived cookie and
 * redirects; the next page shows it once and clears it.
 */
final class Notices {
    static final String COOKIE = "regina_notice";

    private Notices() {
    }

    /** The view name of a redirect to {@code target} (a dashboard path) that shows {@code notice} once. */
    static String redirect(ServerWebExchange exchange, String target, String notice) {
        exchange.getResponse().addCookie(ResponseCookie.from(COOKIE, URLEncoder.encode(notice, StandardCharsets.UTF_8))
                .path("/dashboard").httpOnly(true).sameSite("Lax").maxAge(Duration.ofMinutes(1)).build());
        return "redirect:" + safeTarget(target);
    }

    /** The pending notice, or null; reading it clears it. */
    static String take(ServerWebExchange exchange) {
        if (exchange.getRequest().getMethod() != HttpMethod.GET) {
            return null;
        }
        HttpCookie cookie = exchange.getRequest().getCookies().getFirst(COOKIE);
        if (cookie == null || cookie.getValue().isEmpty()) {
            return null;
        }
        exchange.getResponse().addCookie(ResponseCookie.from(COOKIE, "").path("/dashboard").maxAge(0).build());
        return URLDecoder.decode(cookie.getValue(), StandardCharsets.UTF_8);
    }

    /** Only dashboard-local targets: a form's "back" field must not turn the dashboard into an open redirect. */
    static String safeTarget(String target) {
        if (target == null || !target.startsWith("/dashboard") || target.startsWith("//") || target.contains("\\")
                || target.contains("\r") || target.contains("\n")) {
            return DashboardRoutes.OVERVIEW;
        }
        return target;
    }
}
