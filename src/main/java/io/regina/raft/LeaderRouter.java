package io.regina.raft;

import io.regina.queue.Result;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientAsynchronousProtocol;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.protocol.exceptions.LeaderSteppingDownException;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.protocol.exceptions.RaftException;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the {@link GroupCommitter}'s entries to the leader: straight into the local division when this
 * node leads (no RPC hop, and no hop to Ratis' client-request executor either: the division appends on the
 * calling thread, which only takes the server's lock for the append; a stable client id and rising call
 * ids for the retry cache, each entry naming the calls already answered so the cache lets them go
 * ({@link RepliedCalls}); the results handed over by the state machine, {@link LocalAnswers}), else
 * through a
 * {@link RaftClient} to the remote leader; an entry the local server refuses because it just lost
 * leadership is forwarded too. A reply is passed on on the thread that completed it (see
 * {@link GroupCommitter}); only a forward, which may have to build the client, runs on the forwarding
 * executor.
 */
final class LeaderRouter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderRouter.class);

    private final RaftNodeSettings settings;
    private final RaftGroup group;
    private final LocalServer local;
    private final ExecutorService forwardExecutor;
    private final RaftMetrics metrics;
    private final RaftPeerId selfId;
    private final LocalAnswers answers;
    private final AtomicLong callIds = new AtomicLong();
    private final RepliedCalls replied = new RepliedCalls();
    private final AtomicLong answeredIndex = new AtomicLong(-1);
    private final Object clientLock = new Object();
    private RaftClient forwardClient;

    LeaderRouter(RaftNodeSettings settings, RaftGroup group, LocalServer local, LocalAnswers answers,
            ExecutorService forwardExecutor, RaftMetrics metrics) {
        this.settings = settings;
        this.answers = answers;
        this.group = group;
        this.local = local;
        this.forwardExecutor = forwardExecutor;
        this.metrics = metrics;
        this.selfId = RaftPeerId.valueOf(settings.nodeId());
    }

    /** Sends one encoded entry; completes with its results, one per command. */
    CompletableFuture<List<Result>> send(byte[] request) {
        RaftServer s = local.server();
        RaftServer.Division d = local.division();
        if (s == null || d == null) {
            return CompletableFuture.failedFuture(new IllegalStateException(
                    local.isClosing() ? "the raft node is shutting down" : "the raft node is not started"));
        }
        Message message = Message.valueOf(UnsafeByteOperations.unsafeWrap(request));
        if (!d.getInfo().isLeader()) {
            return forward(message);
        }
        long callId = callIds.incrementAndGet();
        CompletableFuture<List<Result>> answer = answers.expect(callId);
        RaftClientRequest clientRequest = RaftClientRequest.newBuilder()
                .setClientId(answers.clientId())
                .setServerId(selfId)
                .setGroupId(RaftNode.GROUP_ID)
                .setCallId(callId)
                .setRepliedCallIds(replied.drain())
                .setMessage(message)
                .setType(RaftClientRequest.writeRequestType())
                .build();
        CompletableFuture<RaftClientReply> reply;
        try {
            // Ratis' division is its RaftServerImpl, which takes client requests; the proxy only if that changes
            reply = d instanceof RaftClientAsynchronousProtocol division
                    ? division.submitClientRequestAsync(clientRequest) : s.submitClientRequestAsync(clientRequest);
        } catch (IOException | RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        return reply.handle((r, error) -> {
            answers.forget(callId);
            replied.add(callId);
            Throwable failure = error != null ? unwrap(error) : r.isSuccess() ? null : r.getException();
            if (failure == null) {
                return CompletableFuture.completedFuture(answered(r, answer.getNow(null)));
            }
            if (isLeadershipFailure(failure)) {
                LOG.debug("{} lost leadership ({}); forwarding the entry", settings.nodeId(), failure.toString());
                return CompletableFuture.supplyAsync(() -> forward(message), forwardExecutor).thenCompose(f -> f);
            }
            return CompletableFuture.<List<Result>>failedFuture(failure);
        }).thenCompose(f -> f);
    }

    private static boolean isLeadershipFailure(Throwable t) {
        return t instanceof NotLeaderException || t instanceof LeaderNotReadyException
                || t instanceof LeaderSteppingDownException;
    }

    private static Throwable unwrap(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private CompletableFuture<List<Result>> forward(Message message) {
        RaftClient client;
        try {
            client = forwardClient();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        metrics.recordEntryForwarded();
        CompletableFuture<RaftClientReply> reply;
        try {
            reply = client.async().send(message);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        return reply.handle((r, error) -> {
            if (error != null) {
                throw new CompletionException(unwrap(error));
            }
            if (!r.isSuccess()) {
                RaftException e = r.getException();
                throw new CompletionException(e != null ? e : new IOException("entry failed: " + r));
            }
            return answered(r, null);
        });
    }

    /** The results: {@code handedOver} by the state machine ({@link LocalAnswers}), else those in the reply. */
    private List<Result> answered(RaftClientReply reply, List<Result> handedOver) {
        answeredIndex.accumulateAndGet(reply.getLogIndex(), Math::max);
        return handedOver != null ? handedOver
                : EntryCodec.decodeResults(reply.getMessage().getContent().asReadOnlyByteBuffer());
    }

    /** The highest log index of an entry this node was answered for (applied by the leader), or -1. */
    long answeredIndex() {
        return answeredIndex.get();
    }

    private RaftClient forwardClient() {
        synchronized (clientLock) {
            if (forwardClient == null) {
                if (local.isClosing()) {
                    throw new IllegalStateException("the raft node is shutting down");
                }
                forwardClient = RaftClient.newBuilder()
                        .setProperties(RatisProperties.forwardingClient(settings))
                        .setRaftGroup(currentGroup())
                        .setClientId(ClientId.randomId())
                        .setRetryPolicy(RatisProperties.forwardingRetries())
                        .build();
            }
            return forwardClient;
        }
    }

    /**
     * The members as this node's division knows them now, so a node that joined later, or a group whose
     * membership changed, is reached; later changes the client learns from the leaders it is sent to.
     */
    private RaftGroup currentGroup() {
        RaftServer.Division d = local.division();
        RaftGroup current = d == null ? group : d.getGroup();
        if (current.getPeers().isEmpty()) {
            throw new IllegalStateException("node " + settings.nodeId() + " is not a member of the group yet: "
                    + "add it through the leader (POST /api/v1/cluster/members)");
        }
        return current;
    }

    /** Closes the forwarding client; a later forward is refused, the node is closing. */
    @Override
    public void close() {
        RaftClient client;
        synchronized (clientLock) {
            client = forwardClient;
            forwardClient = null;
        }
        if (client != null) {
            try {
                client.close();
            } catch (IOException e) {
                LOG.warn("closing the forwarding client of {}", settings.nodeId(), e);
            }
        }
    }
}
