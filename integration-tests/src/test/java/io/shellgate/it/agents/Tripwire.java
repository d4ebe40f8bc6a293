package io.shellgate.it.agents;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A proxy on 127.0.0.1 that forwards nothing: the agents get it as {@code HTTPS_PROXY} and
 * {@code HTTP_PROXY} (with {@code NO_PROXY} for loopback), so a request for any other host lands
 * here, is recorded by its request line ({@code CONNECT api.example.com:443 HTTP/1.1}) and fails.
 * A test asserts that it saw nothing. It catches only clients that honour the proxy variables; the
 * agents' own code paths were checked once with strace (docs/agents.md).
 */
public final class Tripwire implements AutoCloseable {

    private final ServerSocket socket;
    private final List<String> seen = new ArrayList<>();

    public Tripwire() throws IOException {
        socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread.ofPlatform().daemon().name("tripwire").start(this::accept);
    }

    /** {@code http://127.0.0.1:PORT} */
    public String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    /** The request lines of every connection that came in. */
    public synchronized List<String> seen() {
        return List.copyOf(seen);
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                Thread.ofPlatform().daemon().start(() -> record(client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void record(Socket client) {
        try (client) {
            client.setSoTimeout(10_000);
            String line = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.ISO_8859_1)).readLine();
            synchronized (this) {
                seen.add(line == null ? "(connection without a request)" : line);
            }
            client.getOutputStream().write("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            synchronized (this) {
                seen.add("(connection that failed: " + e.getMessage() + ")");
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
