package io.regina.queue;

/** A membership change that was refused or failed; {@link #reason()} says which, for the HTTP status. */
public final class MembershipException extends RuntimeException {

    /** Why the change did not happen. */
    public enum Reason {
        /** The id or the address does not read. */
        INVALID,
        /** No member has that id. */
        UNKNOWN_MEMBER,
        /** A member already has that id or that address. */
        ALREADY_MEMBER,
        /** The change would leave the group without members. */
        LAST_MEMBER,
        /** Another change is in progress, or the group changed since this node read it: try again. */
        CHANGING,
        /** The node is not running, or the group could not commit the change (no leader, timeout). */
        UNAVAILABLE
    }

    private final Reason reason;

    public MembershipException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public MembershipException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
