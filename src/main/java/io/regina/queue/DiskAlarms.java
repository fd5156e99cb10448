package io.regina.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The nodes whose data directory is under its reserve, as each said through the log. While one alarm
 * is up every node refuses pushes, the way RabbitMQ's disk alarm blocks publishers cluster-wide: a
 * follower whose Raft log meets a full disk drops out of the cluster until it is restarted, and a
 * leader whose disk is full refuses everything, so one node's disk is the whole cluster's limit. An
 * alarm lapses {@link #LAPSE_MS} after it was last raised, so a node that died with its alarm up does
 * not hold the cluster's pushes forever; the node refreshes it every {@link #REFRESH_MS} while its
 * disk stays short. For the same reason it is not in the snapshot: a node that loads one learns the
 * alarms still up within a refresh. Pushes are refused before they enter the log (the API reads
 * {@link #raised}); applying a command never depends on an alarm, so replicas cannot diverge on one.
 */
public final class DiskAlarms {

    public static final long REFRESH_MS = 5_000;
    public static final long LAPSE_MS = 15_000;

    private final Map<String, Long> raisedAt = new TreeMap<>();

    Result set(Command.DiskAlarm alarm, long now) {
        if (alarm.raised()) {
            raisedAt.put(alarm.node(), now);
        } else {
            raisedAt.remove(alarm.node());
        }
        return new Result.DiskAlarms(raised(now));
    }

    /** The nodes, in id order, whose alarm was raised within {@link #LAPSE_MS} before {@code now}. */
    List<String> raised(long now) {
        List<String> raised = new ArrayList<>(raisedAt.size());
        raisedAt.forEach((node, at) -> {
            if (now - at < LAPSE_MS) {
                raised.add(node);
            }
        });
        return raised;
    }
}
