package io.shellgate.client;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One connection to the judge server of a run directory that can be believed, for a client that
 * sends one request at a time and waits for each reply: over the Unix socket, or over loopback TCP
 * with the token sent and the proof checked (docs/protocol.md, "What a TCP client must check").
 */
public final class ServerConnection implements Closeable {

    /** Interim lines believed before one reply; more are no answer. */
    static final int MAX_INTERIM = 8;

    /** A run directory (or socket) that another user could have put there: no server in it is believed. */
    public static final class Untrusted extends IOException {
        private static final long serialVersionUID = 1L;

        Untrusted(String message) {
            super(message);
        }
    }

    private final SocketChannel channel;
    private final ChannelLines lines;
    private final String token;
    private final String proof;

    private ServerConnection(SocketChannel channel, String token, String proof) {
        this.channel = channel;
        this.lines = new ChannelLines(channel);
        this.token = token;
        this.proof = proof;
    }

    /**
     * Connects to the server's Unix socket. {@link Untrusted} when the run directory cannot be
     * believed; another {@link IOException} when no server listens.
     */
    public static ServerConnection unix(RunDirectory run) throws IOException {
        Path socket = run.socket();
        if (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("no server.sock in " + run.dir());
        }
        trust(run);
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            ch.connect(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return new ServerConnection(ch, null, null);
    }

    /**
     * Connects to the server's loopback TCP port, with the token it sends and the proof every reply
     * must carry, read from the run directory only after it and the three files were found private.
     */
    public static ServerConnection tcp(RunDirectory run) throws IOException {
        for (Path f : new Path[] {run.port(), run.token(), run.proof()}) {
            if (!Files.exists(f, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException("no " + f.getFileName() + " in " + run.dir());
            }
        }
        trust(run);
        int port;
        try {
            port = Integer.parseInt(Files.readString(run.port()).strip());
        } catch (NumberFormatException e) {
            throw new IOException(run.port() + " does not hold a port", e);
        }
        String token = Files.readString(run.token()).strip();
        String proof = Files.readString(run.proof()).strip();
        if (port < 1 || port > 65535 || !token.matches("[0-9a-f]{64}") || !proof.matches("[0-9a-f]{64}")) {
            throw new IOException("the server's files in " + run.dir() + " do not hold a port, a token and a proof");
        }
        SocketChannel ch = SocketChannel.open();
        try {
            ch.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return new ServerConnection(ch, token, proof);
    }

    private static void trust(RunDirectory run) throws Untrusted {
        String problem = run.problem();
        if (problem != null) {
            throw new Untrusted("the run directory is not believed: " + problem);
        }
    }

    /** What a TCP request carries as {@code "token"}; null on the Unix socket, where none is needed. */
    public String token() {
        return token;
    }

    /** Sends one line that gets no reply (a {@code stop} the client does not wait on, a {@code ran} notice). */
    public void send(String line) throws IOException {
        ByteBuffer out = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
        while (out.hasRemaining()) {
            channel.write(out);
        }
    }

    /**
     * The next line as a reply (an interim line included), proof checked on TCP; an
     * {@link IOException} when the connection ends first or is closed meanwhile.
     */
    public Reply next() throws IOException {
        return Reply.parse(lines.next(), proof);
    }

    /**
     * Sends {@code line} and reads its reply: the first line within {@code firstLineMillis}, and
     * after each interim line within the time it names; a line without the proof (on TCP) is
     * {@link Reply.NoAnswer}. An {@link IOException} when the server closes the connection or is
     * silent for longer.
     */
    public Reply exchange(String line, long firstLineMillis) throws IOException {
        AtomicLong until = new AtomicLong(System.currentTimeMillis() + firstLineMillis);
        AtomicBoolean expired = new AtomicBoolean();
        AtomicLong waited = new AtomicLong(firstLineMillis);
        // a blocked read on a channel ends when the channel is closed
        Thread closer = new Thread(() -> {
            while (true) {
                long left = until.get() - System.currentTimeMillis();
                if (left <= 0) {
                    expired.set(true);
                    close();
                    return;
                }
                try {
                    Thread.sleep(left);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "shellgate-server-reply");
        closer.setDaemon(true);
        closer.start();
        try {
            send(line);
            for (int interim = 0; ; interim++) {
                Reply reply = next();
                if (!(reply instanceof Reply.Pending pending)) {
                    return reply;
                }
                if (interim == MAX_INTERIM) {
                    return new Reply.NoAnswer("the judge server sent more than " + MAX_INTERIM + " interim lines");
                }
                waited.set(pending.waitMillis());
                until.set(System.currentTimeMillis() + pending.waitMillis());
            }
        } catch (IOException e) {
            if (expired.get()) {
                throw new IOException("the judge server did not answer in " + seconds(waited.get()), e);
            }
            throw e;
        } finally {
            closer.interrupt();
        }
    }

    /** {@code millis} as a reader wants it: whole seconds when they are whole. */
    public static String seconds(long millis) {
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }

    /** The server's process id, when one in {@code run} can be believed and answers a ping within {@code millis}. */
    public static Long ping(RunDirectory run, long millis) {
        try (ServerConnection c = unix(run)) {
            return c.exchange(Requests.ping(null), millis) instanceof Reply.Pong pong ? pong.pid() : null;
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing a broken connection
        }
    }
}
