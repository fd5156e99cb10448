package io.regina.raft;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle of this node's Ratis server and its storage: start (RECOVER when the storage already
 * holds the group, FORMAT otherwise), wait for a leader, close. Once closing it stays closed; the
 * other parts of the {@link RaftNode} ask it whether the node is started or closing.
 */
final class LocalServer {

    private static final Logger LOG = LoggerFactory.getLogger(LocalServer.class);

    private final RaftNodeSettings settings;
    private final RaftGroup group;
    private final BrokerStateMachine<?> stateMachine;
    private volatile RaftServer server;
    private volatile RaftServer.Division division;
    private volatile boolean closing;

    LocalServer(RaftNodeSettings settings, RaftGroup group, BrokerStateMachine<?> stateMachine) {
        this.settings = settings;
        this.group = group;
        this.stateMachine = stateMachine;
    }

    Path storageDir() {
        return RatisProperties.storageDir(settings);
    }

    /**
     * Starts the server and blocks until a leader is known (single node: until it is leader-ready; a
     * joining node does not wait).
     */
    synchronized void start() throws IOException {
        if (closing) {
            throw new IllegalStateException("a closed RaftNode cannot be restarted; build a new one");
        }
        if (server != null) {
            return;
        }
        Files.createDirectories(storageDir());
        boolean existing = Files.isDirectory(storageDir().resolve(RaftNode.GROUP_ID.getUuid().toString()));
        RaftStorage.StartupOption option = existing ? RaftStorage.StartupOption.RECOVER
                : RaftStorage.StartupOption.FORMAT;
        LOG.info("starting raft node {} ({}) in {} with {}", settings.nodeId(), option, storageDir(), group);
        RaftServer s = RaftServer.newBuilder()
                .setServerId(RaftPeerId.valueOf(settings.nodeId()))
                .setGroup(group)
                .setStateMachine(stateMachine)
                .setProperties(RatisProperties.server(settings))
                .setOption(option)
                .build();
        try {
            s.start();
            server = s;
            division = s.getDivision(RaftNode.GROUP_ID);
            if (!settings.join()) { // a joining node has no leader until one adds it
                awaitLeader();
            }
        } catch (IOException | RuntimeException e) {
            server = null;
            division = null;
            try {
                s.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private void awaitLeader() throws IOException {
        long deadline = System.nanoTime() + settings.startTimeout().toNanos();
        while (System.nanoTime() < deadline) {
            DivisionInfo info = division.getInfo();
            if (settings.singleNode() ? info.isLeaderReady() : info.getLeaderId() != null) {
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for a raft leader", e);
            }
        }
        throw new IOException("no raft leader after " + settings.startTimeout() + " (node " + settings.nodeId()
                + ", group " + settings.initialPeers() + "): are a majority of the peers up and reachable?");
    }

    /** The server, or null before start. */
    RaftServer server() {
        return server;
    }

    /** The group's division on this server, or null before start. */
    RaftServer.Division division() {
        return division;
    }

    boolean isRunning() {
        return server != null && !closing;
    }

    /**
     * What stopped this node's division without a close of ours, or null while it runs (or was never
     * started, or is closing): Ratis closes the division when its state machine throws an {@code Error}, and
     * its log when a log write fails (a full disk, an I/O error). Either way only a restart brings it back.
     */
    String stoppedByItself() {
        RaftServer.Division d = division;
        if (d == null || closing) {
            return null;
        }
        if (!d.getInfo().isAlive()) {
            return "division is " + d.getInfo().getLifeCycleState() + " (its state machine or log failed)";
        }
        if (!d.getRaftLog().isOpened()) {
            return "log is closed after a failed write (a full disk?)";
        }
        return null;
    }

    boolean isClosing() {
        return closing;
    }

    /** Marks the node closing; true only for the first call, so closing happens once. */
    synchronized boolean beginClose() {
        if (closing) {
            return false;
        }
        closing = true;
        return true;
    }

    /** Closes the server, which applies what is committed and takes a snapshot ({@code trigger-when-stop}). */
    void closeServer() {
        RaftServer s = server;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                LOG.warn("closing raft server {}", settings.nodeId(), e);
            }
        }
    }
}
