package io.shellgate.launcher.internal.pty;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The channel where FIFOs are not at hand (PowerShell on Windows): a loopback TCP port. Each
 * message is one connection: a secret token then the message's fields, each ended by NUL; the
 * client shuts down its sending side and reads one reply line. A message without the token is
 * dropped unanswered.
 */
final class TcpChannel implements HookChannel {

    private final ServerSocket server;
    private final String token;

    TcpChannel() throws IOException {
        server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        token = HexFormat.of().formatHex(secret);
    }

    int port() {
        return server.getLocalPort();
    }

    String token() {
        return token;
    }

    @Override
    public Exchange next() throws IOException {
        while (true) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (server.isClosed()) {
                    return null;
                }
                throw e;
            }
            byte[] message = read(s);
            byte[] prefix = (token + "\0").getBytes(StandardCharsets.US_ASCII);
            if (message.length < prefix.length || !Arrays.equals(message, 0, prefix.length, prefix, 0, prefix.length)) {
                s.close();
                continue;
            }
            byte[] rest = Arrays.copyOfRange(message, prefix.length, message.length);
            return new Exchange() {
                @Override
                public byte[] message() {
                    return rest;
                }

                @Override
                public void reply(String line) throws IOException {
                    try (s) {
                        s.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
                    }
                }

                @Override
                public void acknowledge() throws IOException {
                    reply("ok");
                }
            };
        }
    }

    private static byte[] read(Socket s) throws IOException {
        s.setSoTimeout(10_000);
        InputStream in = s.getInputStream();
        // the environment of a shell is far below this; a larger message is not one of ours
        return in.readNBytes(4 << 20);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closed already
        }
    }
}
