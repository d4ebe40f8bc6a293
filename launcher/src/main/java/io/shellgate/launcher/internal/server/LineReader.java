package io.shellgate.launcher.internal.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Request lines from a connection, read in blocks: bytes after a newline (a client may send
 * several requests at once) stay for the next line.
 */
final class LineReader {

    static final class TooLong extends IOException {
        TooLong() {
            super("request line too long");
        }
    }

    private final InputStream in;
    private byte[] block = new byte[16 * 1024];
    private int start;
    private int end;

    LineReader(InputStream in) {
        this.in = in;
    }

    /** Keeps {@code n} bytes read from the stream by someone else (a look for a hang-up) for the next lines. */
    void unread(byte[] bytes, int n) {
        if (end + n > block.length) {
            System.arraycopy(block, start, block, 0, end - start);
            end -= start;
            start = 0;
            if (end + n > block.length) {
                block = java.util.Arrays.copyOf(block, end + n);
            }
        }
        System.arraycopy(bytes, 0, block, end, n);
        end += n;
    }

    /** The next line without its newline, or null at end of stream; a last line without a newline counts. */
    String next() throws IOException {
        ByteArrayOutputStream longer = null;
        while (true) {
            for (int i = start; i < end; i++) {
                if (block[i] == '\n') {
                    if ((longer == null ? 0 : longer.size()) + i - start > Protocol.MAX_REQUEST) {
                        throw new TooLong();
                    }
                    String line;
                    if (longer == null) {
                        line = new String(block, start, i - start, StandardCharsets.UTF_8);
                    } else {
                        longer.write(block, start, i - start);
                        line = longer.toString(StandardCharsets.UTF_8);
                    }
                    start = i + 1;
                    return line;
                }
            }
            if (start < end) {
                if (longer == null) {
                    longer = new ByteArrayOutputStream(2 * (end - start));
                }
                longer.write(block, start, end - start);
                if (longer.size() > Protocol.MAX_REQUEST) {
                    throw new TooLong();
                }
            }
            start = 0;
            end = 0;
            int n = in.read(block);
            if (n < 0) {
                return longer == null || longer.size() == 0 ? null : longer.toString(StandardCharsets.UTF_8);
            }
            end = n;
        }
    }

    /**
     * The rest of the connection as a stream: the bytes read but not yet taken as lines, then the
     * connection's. Its end does not close the connection, which still carries the answers.
     */
    InputStream rest() {
        byte[] kept = java.util.Arrays.copyOfRange(block, start, end);
        start = 0;
        end = 0;
        return new InputStream() {
            private int at;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (at < kept.length) {
                    int n = Math.min(len, kept.length - at);
                    System.arraycopy(kept, at, b, off, n);
                    at += n;
                    return n;
                }
                return in.read(b, off, len);
            }
        };
    }
}
