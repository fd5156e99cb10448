package io.regina.config;

import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import java.util.List;

/**
 * What a request to {@code /api/**} needs when auth is on, Queen's table (its auth middleware's route
 * levels): reads need {@code read-only}; consuming (a pop is a GET that takes a lease) and writing need
 * {@code read-write}; deleting queues and groups, maintenance, and Regina's own failed-job, queue and
 * cluster-membership operations that change state need {@code admin}. The first rule that matches decides.
 */
enum ApiAccess {
    READ_ONLY,
    READ_WRITE,
    ADMIN;

    private record Rule(HttpMethod method, PathPattern path, ApiAccess access) {
        boolean matches(HttpMethod requestMethod, PathContainer requestPath) {
            return (method == null || method.equals(requestMethod)) && path.matches(requestPath);
        }
    }

    private static final List<Rule> RULES = List.of(
            rule(null, "/api/v1/system/**", ADMIN),
            rule(HttpMethod.POST, "/api/v1/cluster/members/**", ADMIN),
            rule(HttpMethod.DELETE, "/api/v1/cluster/members/**", ADMIN),
            rule(HttpMethod.DELETE, "/api/v1/resources/queues/**", ADMIN),
            rule(HttpMethod.DELETE, "/api/v1/consumer-groups/**", ADMIN),
            rule(HttpMethod.POST, "/api/v1/failed-jobs/**", ADMIN),
            rule(HttpMethod.DELETE, "/api/v1/failed-jobs/**", ADMIN),
            rule(HttpMethod.POST, "/api/v1/queues/*/pause", ADMIN),
            rule(HttpMethod.POST, "/api/v1/queues/*/resume", ADMIN),
            rule(HttpMethod.DELETE, "/api/v1/queues/*/clear", ADMIN),
            rule(null, "/api/v1/pop/**", READ_WRITE),
            rule(HttpMethod.GET, "/api/**", READ_ONLY));

    private static Rule rule(HttpMethod method, String pattern, ApiAccess access) {
        return new Rule(method, PathPatternParser.defaultInstance.parse(pattern), access);
    }

    /** What the request needs; anything no rule names (push, ack, configure, …) needs {@code read-write}. */
    static ApiAccess required(HttpMethod method, PathContainer path) {
        for (Rule rule : RULES) {
            if (rule.matches(method, path)) {
                return rule.access;
            }
        }
        return READ_WRITE;
    }

    /** The authority a token with this level carries (and every level above it). */
    String authority() {
        return "regina:" + name();
    }

    /** Whether this level includes what {@code needed} allows. */
    boolean allows(ApiAccess needed) {
        return compareTo(needed) >= 0;
    }
}
