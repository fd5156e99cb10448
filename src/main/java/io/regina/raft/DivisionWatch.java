package io.regina.raft;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices, on the leader ticker's looks, that this node's division stopped by itself
 * ({@link LocalServer#stoppedByItself}). Such a node commits nothing again until restarted: without this
 * it answered each write only when its 20 s commit timeout ran out, and {@code GET /health} said healthy.
 * Once noticed, everything waiting and every later command is refused at once with the reason, and each
 * listener hears of it once (the broker exits for its supervisor to restart it).
 */
final class DivisionWatch {

    private static final Logger LOG = LoggerFactory.getLogger(DivisionWatch.class);

    private final String nodeId;
    private final LocalServer local;
    private final GroupCommitter committer;
    private final List<Consumer<String>> listeners = new CopyOnWriteArrayList<>();
    private volatile String stopped;

    DivisionWatch(String nodeId, LocalServer local, GroupCommitter committer) {
        this.nodeId = nodeId;
        this.local = local;
        this.committer = committer;
    }

    /** Why the division stopped by itself, or null while it has not. */
    String stopped() {
        return stopped;
    }

    void onStopped(Consumer<String> listener) {
        listeners.add(listener);
    }

    void check() {
        if (stopped != null) {
            return;
        }
        String why = local.stoppedByItself();
        if (why == null) {
            return;
        }
        synchronized (this) {
            if (stopped != null) {
                return;
            }
            stopped = why;
        }
        LOG.error("raft node {} stopped by itself: its {}; it commits nothing until restarted", nodeId, why);
        // listeners first, so that whoever sees a write refused for the stop also sees them told
        for (Consumer<String> listener : listeners) {
            try {
                listener.accept(why);
            } catch (RuntimeException e) {
                LOG.error("a listener of raft node {}'s stop failed", nodeId, e);
            }
        }
        committer.refuseFromNowOn(new IllegalStateException("this raft node stopped: its " + why
                + "; it must be restarted"));
    }
}
