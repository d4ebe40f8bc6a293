package io.shellgate.launcher.internal.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** A JVM client of the judge server, over its Unix domain socket. */
public final class ServerClient {

    /** A stopped or stuck server still accepts connections: its silence is not waited out. */
    private static final long REPLY_MILLIS = 5_000;

    private ServerClient() {}

    /**
     * Sends one request and reads one reply; empty when the server cannot be reached, its run
     * directory is not believed, or it says nothing for {@value #REPLY_MILLIS} ms.
     */
    public static Optional<JsonNode> request(RunDir run, ObjectNode request) {
        if (run.problem() != null) {
            return Optional.empty();
        }
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            // a blocked read on a channel ends when the channel is closed
            Thread closer = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(REPLY_MILLIS);
                    channel.close();
                } catch (InterruptedException | IOException e) {
                    // answered in time, or already closed
                }
            });
            try {
                return exchange(channel, run, request);
            } finally {
                closer.interrupt();
            }
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<JsonNode> exchange(SocketChannel channel, RunDir run, ObjectNode request) throws IOException {
        channel.connect(UnixDomainSocketAddress.of(run.socket()));
        OutputStream out = Channels.newOutputStream(channel);
        out.write((Protocol.line(request) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        InputStream in = new java.io.BufferedInputStream(Channels.newInputStream(channel));
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            bytes.write(b);
            if (bytes.size() > Protocol.MAX_REQUEST * 4) {
                return Optional.empty();
            }
        }
        return bytes.size() == 0 ? Optional.empty() : Optional.of(Protocol.parse(bytes.toString(StandardCharsets.UTF_8)));
    }

    /** The server's pid, if it answers a ping. */
    public static Optional<Long> ping(RunDir run) {
        ObjectNode ping = Protocol.object();
        ping.put("v", Protocol.VERSION);
        ping.put("op", "ping");
        return request(run, ping).filter(r -> r.path("pong").asBoolean(false)).map(r -> r.path("pid").asLong());
    }
}
