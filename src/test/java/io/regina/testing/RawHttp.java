package io.regina.testing;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/** HTTP/1.1 over a plain socket, written and read by hand: one connection kept alive, requests pipelined at will. */
public final class RawHttp {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private RawHttp() {
    }

    public static String post(String path, String body, String headers) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + headers
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    public static String get(String path, String headers) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n" + headers + "\r\n";
    }

    /** A keep-alive connection to the broker on {@code port} of loopback, reads timing out after 15 s. */
    public static Connection connect(int port) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(15_000);
        return new Connection(socket);
    }

    public record Answer(int status, Map<String, String> headers, byte[] body) {
        public JsonNode json() {
            return JSON.readTree(body);
        }
    }

    /** One keep-alive connection, written and read by hand. */
    public static final class Connection implements AutoCloseable {
        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.out = socket.getOutputStream();
            this.in = socket.getInputStream();
        }

        public Answer send(String request) throws IOException {
            write(request);
            return read();
        }

        public void write(String request) throws IOException {
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        public Answer read() throws IOException {
            String statusLine = line();
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            Map<String, String> headers = new HashMap<>();
            for (String header = line(); !header.isEmpty(); header = line()) {
                int colon = header.indexOf(':');
                headers.put(header.substring(0, colon).trim().toLowerCase(), header.substring(colon + 1).trim());
            }
            byte[] body;
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                for (int size = Integer.parseInt(line(), 16); size > 0; size = Integer.parseInt(line(), 16)) {
                    all.write(in.readNBytes(size));
                    line();
                }
                line();
                body = all.toByteArray();
            } else {
                body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
            }
            return new Answer(status, headers, body);
        }

        private String line() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    throw new IOException("connection closed mid-answer");
                }
                if (b != '\r') {
                    line.write(b);
                }
            }
            return line.toString(StandardCharsets.US_ASCII);
        }

        /** The next byte from the broker, -1 once it closed the connection. */
        public int readByte() throws IOException {
            return in.read();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
