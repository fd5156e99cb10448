package io.regina.queue;

/** The port through which the API and the dashboard see the replication group this node belongs to. */
public interface ClusterInfo {
    ClusterStatus status();
}
