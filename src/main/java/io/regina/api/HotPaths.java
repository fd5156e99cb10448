package io.regina.api;

import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which request lines name a hot endpoint ({@link HotEndpoints}) that {@link HotConnection} may serve itself:
 * a GET or POST whose raw path is one of theirs spelled with plain characters ({@link PlainPath}), whose
 * query holds only characters a URI may hold, from a client that takes JSON. Anything else is left to
 * Spring, which gives the odd cases its own answers (decoding, 405, 406).
 */
final class HotPaths {
    private final List<Route> routes;

    HotPaths(List<HotEndpoints.Endpoint> endpoints) {
        this.routes = endpoints.stream().map(Route::new).toList();
    }

    /**
     * The route for this request line and Accept header (null when absent; several joined by commas), its
     * path variables put in {@code variables}; null when Spring should serve it.
     */
    Route match(String method, String uri, String accept, Map<String, String> variables) {
        if (!"GET".equals(method) && !"POST".equals(method)) {
            return null;
        }
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        if (!PlainPath.is(path) || q >= 0 && !uriQuery(uri, q + 1)) {
            return null;
        }
        for (Route route : routes) {
            if (route.endpoint.method().name().equals(method) && route.matches(path, variables)) {
                return acceptsJson(accept) ? route : null;
            }
        }
        return null;
    }

    /** The raw query of a request target, or null without one. */
    static String rawQuery(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? null : uri.substring(q + 1);
    }

    /**
     * The first value of each parameter of a raw query, as Spring's {@code getQueryParams().toSingleValueMap()}
     * reads it: {@code name=value} pairs split at {@code &}, each side URL-decoded (a {@code +} is a space; a
     * bad escape is kept as written), {@code name=} an empty value, a bare {@code name} a null one.
     */
    static Map<String, String> query(String rawQuery) {
        Map<String, String> query = new HashMap<>();
        if (rawQuery == null) {
            return query;
        }
        int start = 0;
        while (start <= rawQuery.length()) {
            int end = rawQuery.indexOf('&', start);
            if (end < 0) {
                end = rawQuery.length();
            }
            parameter(rawQuery, start, end, query);
            start = end + 1;
        }
        return query;
    }

    /** One {@code &}-separated piece, read as Spring's pattern {@code ([^&=]+)(=?)([^&]+)?} reads it. */
    private static void parameter(String raw, int start, int end, Map<String, String> query) {
        int nameEnd = start;
        while (nameEnd < end && raw.charAt(nameEnd) != '=') {
            nameEnd++;
        }
        if (nameEnd == start) {
            // no name: Spring's pattern skips the '=' run and takes what follows as a name of its own
            int from = start;
            while (from < end && raw.charAt(from) == '=') {
                from++;
            }
            if (from < end) {
                parameter(raw, from, end, query);
            }
            return;
        }
        String name = decode(raw.substring(start, nameEnd));
        String value;
        if (nameEnd == end) {
            value = null;
        } else {
            value = nameEnd + 1 == end ? "" : decode(raw.substring(nameEnd + 1, end));
        }
        if (!query.containsKey(name)) {
            query.put(name, value);
        }
    }

    private static String decode(String value) {
        try {
            return URLDecoder.decode(value, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return value;
        }
    }

    /**
     * Whether the query from {@code from} holds only what java.net.URI takes in a query (Spring builds one
     * from the request line): ASCII letters, digits, {@code -._~!$&'()*+,;=:@/?} and well-formed escapes.
     */
    private static boolean uriQuery(String uri, int from) {
        for (int i = from; i < uri.length(); i++) {
            char c = uri.charAt(i);
            boolean plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "-._~!$&'()*+,;=:@/?".indexOf(c) >= 0;
            if (c == '%') {
                if (i + 2 >= uri.length() || !hex(uri.charAt(i + 1)) || !hex(uri.charAt(i + 2))) {
                    return false;
                }
                i += 2;
            } else if (!plain) {
                return false;
            }
        }
        return true;
    }

    private static boolean hex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    private static boolean acceptsJson(String accept) {
        if (accept == null || accept.equals("application/json") || accept.equals("*/*")) {
            return true;
        }
        try {
            return HotEndpoints.acceptsJson(MediaType.parseMediaTypes(accept));
        } catch (InvalidMediaTypeException e) {
            return false;
        }
    }

    /**
     * An endpoint's pattern split into segments at each {@code /}; a {@code {name}} segment matches any one
     * segment. A path is matched in place: a hot request allocates only its variables' values.
     */
    static final class Route {
        private final HotEndpoints.Endpoint endpoint;
        private final String[] segments;
        /** The variable's name for a {@code {name}} segment, null for a literal one. */
        private final String[] names;

        Route(HotEndpoints.Endpoint endpoint) {
            this.endpoint = endpoint;
            this.segments = endpoint.pattern().split("/", -1);
            this.names = new String[segments.length];
            for (int i = 0; i < segments.length; i++) {
                if (segments[i].startsWith("{")) {
                    names[i] = segments[i].substring(1, segments[i].length() - 1);
                }
            }
        }

        HotEndpoints.Endpoint endpoint() {
            return endpoint;
        }

        boolean matches(String path, Map<String, String> variables) {
            if (!fits(path)) {
                return false;
            }
            int from = 0;
            for (String name : names) {
                int slash = path.indexOf('/', from);
                int end = slash < 0 ? path.length() : slash;
                if (name != null) {
                    variables.put(name, path.substring(from, end));
                }
                from = end + 1;
            }
            return true;
        }

        /** Whether the path has as many segments as the pattern, and each literal one as written. */
        private boolean fits(String path) {
            int from = 0;
            for (int i = 0; i < segments.length; i++) {
                int slash = path.indexOf('/', from);
                boolean last = i == segments.length - 1;
                if (last != slash < 0) {
                    return false;
                }
                int end = last ? path.length() : slash;
                if (names[i] == null && (end - from != segments[i].length() || !path.startsWith(segments[i], from))) {
                    return false;
                }
                from = end + 1;
            }
            return true;
        }
    }
}
