package io.regina.raft;

import java.util.ArrayList;
import java.util.List;

/**
 * The call ids of this node's own entries whose replies have arrived, for the next entry it submits to
 * name ({@code RaftClientRequest#getRepliedCallIds}): Ratis then drops them from its retry cache at once,
 * as its own client has it do, instead of keeping each for {@link RatisProperties#RETRY_CACHE_MS}.
 *
 * <p>Why: the leader never submits a call id twice (an entry refused for a lost leadership is forwarded
 * under another client), so those cache entries can answer nothing, yet at 1,000 jobs/s twenty seconds of
 * them (~35,000 replies with their ids and commit infos) were a third of what every young collection copied
 * and then promoted (issue 8: ~13 MB a pause of ~22 ms on two cores).
 */
final class RepliedCalls {

    private List<Long> replied = new ArrayList<>();

    /** The reply to {@code callId} arrived, whatever it said. */
    synchronized void add(long callId) {
        replied.add(callId);
    }

    /** The call ids added since the last drain, each once. */
    synchronized List<Long> drain() {
        if (replied.isEmpty()) {
            return List.of();
        }
        List<Long> drained = replied;
        replied = new ArrayList<>();
        return drained;
    }
}
