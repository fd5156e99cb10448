package io.regina.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code regina.dashboard.*}: who may log in to the dashboard. With no user configured the node
 * makes one admin, {@code admin}, with a generated password that it logs once at startup.
 */
@ConfigurationProperties(prefix = "regina.dashboard")
public class DashboardProperties {

    /** {@code regina.dashboard.users.<name>.password} and {@code .role} per user. */
    private Map<String, User> users = new LinkedHashMap<>();

    /** How often the overview samples throughput and depths for its charts. */
    private long sampleIntervalMs = 5000;

    public Map<String, User> getUsers() {
        return users;
    }

    public void setUsers(Map<String, User> users) {
        this.users = users;
    }

    public long getSampleIntervalMs() {
        return sampleIntervalMs;
    }

    public void setSampleIntervalMs(long sampleIntervalMs) {
        this.sampleIntervalMs = sampleIntervalMs;
    }

    /** One dashboard user. */
    public static class User {

        /** {@code {bcrypt}…} or {@code {noop}…} (any Spring Security encoded form). */
        private String password;

        /** {@code admin} (everything) or {@code viewer} (reads only). */
        private String role = "viewer";

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }

        public String getRole() {
            return role;
        }

        public void setRole(String role) {
            this.role = role;
        }
    }
}
