package io.regina.client;

/**
 * No broker URL answered the request with anything but a network error or a 5xx, through every retry.
 * {@link #lastStatus()} is the last 5xx seen, or 0 when the last failure was a network error (then the
 * cause). The request may or may not have been applied: a push carries a transactionId, so sending it again
 * is safe (a duplicate is answered as such).
 */
public final class BrokerUnavailableException extends ReginaException {
    private final int lastStatus;

    BrokerUnavailableException(String message, int lastStatus, Throwable cause) {
        super(message, cause);
        this.lastStatus = lastStatus;
    }

    public int lastStatus() {
        return lastStatus;
    }
}
