package io.regina.client;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A canned broker on the JDK's HttpServer: answers each request with the next reply queued (the last one
 * again once the queue is down to it), and records what it was sent.
 */
final class HttpStub implements AutoCloseable {
    record Request(String method, String target, String body, String authorization) {
    }

    private record Reply(int status, String body) {
    }

    private final HttpServer server;
    private final Queue<Reply> replies = new ConcurrentLinkedQueue<>();
    final List<Request> requests = new CopyOnWriteArrayList<>();

    HttpStub() {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String query = exchange.getRequestURI().getRawQuery();
            requests.add(new Request(exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath() + (query == null ? "" : "?" + query), body,
                    exchange.getRequestHeaders().getFirst("Authorization")));
            Reply reply = replies.size() > 1 ? replies.poll() : replies.peek();
            byte[] bytes = reply == null ? new byte[0] : reply.body().getBytes(StandardCharsets.UTF_8);
            int status = reply == null ? 404 : reply.status();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, status == 204 || bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0 && status != 204) {
                exchange.getResponseBody().write(bytes);
            }
            exchange.close();
        });
        server.start();
    }

    /** Queues a reply; replies are given in order, the last one for every request after. */
    HttpStub reply(int status, String body) {
        replies.add(new Reply(status, body));
        return this;
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
