package io.regina.config;

import io.regina.raft.RaftNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;

/**
 * Exits the broker once its Raft node stopped by itself ({@link RaftNode#onStoppedByItself}: Ratis closed
 * the division or its log after an error applying an entry or a failed log write). Such a node commits
 * nothing until restarted, and a process that lingers looks alive to its supervisor; so liveness turns
 * BROKEN, the context closes as on SIGTERM (pending answers refused, the server closed), and the JVM exits
 * with {@value #EXIT_CODE} (EX_SOFTWARE) for systemd, Kubernetes or a shell loop to start it again. The
 * restart recovers from the snapshot and the log as after a crash; a full disk or a broken entry that is
 * still there stops it again, and the supervisor's back-off shows it. A close that hangs is cut short after
 * {@link #CLOSE_LIMIT_MS}.
 */
@Component
class StoppedNodeExit {

    private static final Logger LOG = LoggerFactory.getLogger(StoppedNodeExit.class);
    static final int EXIT_CODE = 70;
    static final long CLOSE_LIMIT_MS = 30_000;

    StoppedNodeExit(RaftNode node, ConfigurableApplicationContext context) {
        node.onStoppedByItself(why -> exit(context, why));
    }

    private static void exit(ConfigurableApplicationContext context, String why) {
        LOG.error("exiting with {}: this node's raft {}; restart it (after freeing disk space if it is full)",
                EXIT_CODE, why);
        AvailabilityChangeEvent.publish(context, LivenessState.BROKEN);
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(CLOSE_LIMIT_MS);
            } catch (InterruptedException e) {
                return;
            }
            LOG.error("the close did not end within {} ms: halting", CLOSE_LIMIT_MS);
            Runtime.getRuntime().halt(EXIT_CODE);
        }, "regina-stopped-node-halt");
        halt.setDaemon(true);
        halt.start();
        // not on the caller's thread: the node's own ticker, which the close stops. Not a daemon, as the
        // ticker is: once the close ends the server's threads, a JVM left with daemons only starts its own
        // shutdown with status 0, and System.exit(70) then waits behind it
        Thread exit = new Thread(() -> System.exit(SpringApplication.exit(context, () -> EXIT_CODE)),
                "regina-stopped-node-exit");
        exit.setDaemon(false);
        exit.start();
    }
}
