package io.regina.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/**
 * Free loopback ports for test nodes. The kernel may hand out a port again once the socket that found
 * it is closed, before the node meant for it binds it (a rolling restart once started a node whose HTTP
 * port was its neighbour's Raft port), so a port is never handed out twice in one JVM.
 */
public final class FreePorts {
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePorts() {
    }

    public static synchronized int next() {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                socket.setReuseAddress(true);
                if (HANDED_OUT.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
