package io.regina.api;

/**
 * A raw request path spelled so that matching it literally is what Spring's own matching would do with it:
 * only letters, digits and {@code / - _ .}, no empty segment, no segment starting with a dot (so no
 * {@code .} or {@code ..}), no trailing slash. Nothing in it is decoded, normalized or filtered by a firewall.
 */
public final class PlainPath {
    private PlainPath() {
    }

    public static boolean is(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/' || path.endsWith("/") || path.contains("//")
                || path.contains("/.")) {
            return false;
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            boolean plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '/' || c == '-' || c == '_' || c == '.';
            if (!plain) {
                return false;
            }
        }
        return true;
    }
}
