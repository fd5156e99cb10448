package io.regina.dashboard;

/** Who is looking at the dashboard: admins see and may use every control, viewers only read. */
public record Operator(String name, boolean admin) {
    static final String ADMIN_AUTHORITY = "ROLE_ADMIN";
    static final Operator ANONYMOUS = new Operator("", false);
}
