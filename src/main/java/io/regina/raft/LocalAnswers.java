package io.regina.raft;

import io.regina.queue.Result;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/**
 * The results of the entries this node submits to its own server as leader, handed from the apply thread
 * to the {@link GroupCommitter} as objects. Ratis answers such an entry with an empty message instead.
 *
 * <p>Why: Ratis keeps every reply in its retry cache for {@link RatisProperties#RETRY_CACHE_MS}, so a
 * client's retry is answered without applying twice. A pop's reply holds its messages' payloads: under load
 * the cache held tens of thousands of replies, every one of them copied by young collections until promoted
 * and then dropped from the old generation, and it grew the heap. Without the payloads the broker's RSS at
 * the end of the benchmark's pool and paced lanes fell from 1.0-1.1 GB to 0.8 GB, its committed heap from
 * 850-890 MB to 576 MB (single runs, 2 cores). The leader's own submissions are never retried under
 * their call id (an entry refused for a lost leadership is forwarded as a new request), so their cached
 * replies need no content. The results also skip being encoded after the apply and decoded again here.
 * Entries forwarded from other nodes, and every entry on a follower, are answered as before.
 */
final class LocalAnswers {

    private final ClientId clientId = ClientId.randomId();
    private final ByteString clientIdBytes = clientId.toByteString();
    private final Map<Long, CompletableFuture<List<Result>>> waiting = new ConcurrentHashMap<>();

    /** The client id under which this node submits entries to its own server. */
    ClientId clientId() {
        return clientId;
    }

    /** Before submitting call {@code callId}: where its results will arrive. */
    CompletableFuture<List<Result>> expect(long callId) {
        CompletableFuture<List<Result>> answer = new CompletableFuture<>();
        waiting.put(callId, answer);
        return answer;
    }

    /** Once call {@code callId} is answered or failed: nothing more arrives for it. */
    void forget(long callId) {
        waiting.remove(callId);
    }

    /**
     * On the apply thread: hands {@code results} to the submitter of the entry of {@code client}'s call
     * {@code callId} when it waits here; false when nobody here waits for them (they go in Ratis' reply).
     */
    boolean answer(ByteString client, long callId, List<Result> results) {
        if (!clientIdBytes.equals(client)) {
            return false;
        }
        CompletableFuture<List<Result>> answer = waiting.remove(callId);
        return answer != null && answer.complete(results);
    }
}
