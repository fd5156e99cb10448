package io.regina.queue;

/** The port through which the API and the dashboard see the replication group this node belongs to. */
public interface ClusterInfo {
    ClusterStatus status();

    /** This node's id; an implementation that knows it without building the whole status answers faster. */
    default String nodeId() {
        return status().nodeId();
    }

    /**
     * Why this node stopped serving writes until it is restarted (its replication stopped by itself: a failed
     * log write, an error applying an entry), or null while it serves; never stopped unless overridden.
     */
    default String stopped() {
        return null;
    }
}
