package io.shellgate.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * The lines a connection to the judge server reads, one at a time, from a buffer that keeps what
 * came after the line (the server may send interim lines and the reply in one write). A line
 * usually arrives in one read and is decoded from the buffer, not copied.
 */
public final class ChannelLines {

    /** Longer lines are no reply: a server's verdict is a few kilobytes. */
    static final int MAX_LINE = 16 << 20;

    private final ReadableByteChannel channel;
    /** What was read and not taken yet, between position and limit. */
    private final ByteBuffer buffer = ByteBuffer.allocate(8192).flip();

    public ChannelLines(ReadableByteChannel channel) {
        this.channel = channel;
    }

    /** The next line, without its {@code \n}; an {@link IOException} when the connection ends first. */
    public String next() throws IOException {
        ByteArrayOutputStream longer = null;
        byte[] bytes = buffer.array();
        while (true) {
            int from = buffer.position();
            int to = buffer.limit();
            for (int i = from; i < to; i++) {
                if (bytes[i] == '\n') {
                    buffer.position(i + 1);
                    if (longer == null) {
                        return new String(bytes, from, i - from, StandardCharsets.UTF_8);
                    }
                    longer.write(bytes, from, i - from);
                    return longer.toString(StandardCharsets.UTF_8);
                }
            }
            if (to > from) {
                if (longer == null) {
                    longer = new ByteArrayOutputStream();
                }
                longer.write(bytes, from, to - from);
                if (longer.size() > MAX_LINE) {
                    throw new IOException("the judge server's line is longer than " + MAX_LINE + " bytes");
                }
            }
            buffer.clear();
            int n = channel.read(buffer);
            buffer.flip();
            if (n < 0) {
                throw new IOException("the judge server closed the connection");
            }
        }
    }
}
