package io.regina.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One keep-alive HTTP/1.1 connection over a plain socket, for one thread at a time. The load generator
 * shares the two cores with the brokers, and the JDK's {@code java.net.http} client costs several times
 * the CPU per request of this (PEERS.md), which would bill Regina for its client's overhead.
 * Fixed-length and chunked answers are read; anything else is an error.
 */
final class HttpConnection implements Closeable {

    record Response(int status, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private static final byte[] NO_BODY = new byte[0];

    private final String host;
    private final int port;
    /** Host, and Authorization when the connection carries a token: sent with every request. */
    private final byte[] fixedHeaders;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private long requests;

    /** @param token a bearer token sent on every request, or null for none */
    HttpConnection(String host, int port, String token) {
        this.host = host;
        this.port = port;
        this.fixedHeaders = ("\r\nHost: " + host + ":" + port + "\r\n"
                + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")).getBytes(StandardCharsets.US_ASCII);
    }

    Response get(String path) throws IOException {
        return exchange("GET", path, null);
    }

    Response post(String path, byte[] json) throws IOException {
        return exchange("POST", path, json);
    }

    Response delete(String path) throws IOException {
        return exchange("DELETE", path, null);
    }

    /** Requests sent on this connection so far. */
    long requests() {
        return requests;
    }

    private Response exchange(String method, String path, byte[] body) throws IOException {
        if (socket == null) {
            connect();
        }
        requests++;
        try {
            out.write((method + " " + path + " HTTP/1.1").getBytes(StandardCharsets.US_ASCII));
            out.write(fixedHeaders);
            if (body != null) {
                out.write(("Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(body);
            } else {
                out.write('\r');
                out.write('\n');
            }
            out.flush();
            return read();
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private void connect() throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(120_000);
        socket.connect(new InetSocketAddress(host, port), 5_000);
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        out = new BufferedOutputStream(socket.getOutputStream(), 16 * 1024);
    }

    private Response read() throws IOException {
        String status = line();
        if (!status.startsWith("HTTP/1.1 ") || status.length() < 12) {
            throw new IOException("not an HTTP/1.1 status line: " + status);
        }
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        boolean closing = false;
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = h.substring(0, colon).trim();
            String value = h.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("content-length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("transfer-encoding")) {
                chunked = value.equalsIgnoreCase("chunked");
            } else if (name.equalsIgnoreCase("connection")) {
                closing = value.equalsIgnoreCase("close");
            }
        }
        byte[] body;
        if (chunked) {
            body = chunks();
        } else if (length >= 0) {
            body = length == 0 ? NO_BODY : in.readNBytes((int) length);
            if (body.length != length) {
                throw new EOFException("body cut short: " + body.length + " of " + length + " bytes");
            }
        } else if (code == 204 || code == 304) {
            body = NO_BODY;
        } else {
            throw new IOException("answer " + code + " has neither Content-Length nor chunked encoding");
        }
        if (closing) {
            close();
        }
        return new Response(code, body);
    }

    private byte[] chunks() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = line();
            int semi = size.indexOf(';');
            int n = Integer.parseInt((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
            if (n == 0) {
                while (!line().isEmpty()) {
                    // trailers: none expected, skipped
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(n);
            if (chunk.length != n) {
                throw new EOFException("chunk cut short");
            }
            body.write(chunk);
            line();
        }
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder(64);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed by the server");
            }
            if (b == '\n') {
                int n = sb.length();
                return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
            }
            sb.append((char) b);
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a broken socket: nothing left to do
            }
            socket = null;
        }
    }
}
