package io.shellgate.client;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;

/**
 * The start throttle (docs/protocol.md, {@code starting}): clients that find no server start one at
 * most every {@value #EVERY_SECONDS} s between them, and record each start in {@code starting}.
 */
public final class ServerStarts {

    public static final long EVERY_SECONDS = 10;

    private ServerStarts() {}

    /**
     * Whether a client may start a server for {@code run} now ({@code nowSeconds}, Unix time); when it
     * may and the directory exists, the start is recorded. A record is believed only when it is this
     * user's and nobody else may write it: another user's could hold every start off.
     */
    public static boolean claim(RunDirectory run, long nowSeconds) throws IOException {
        try {
            if (PrivateFolder.fileProblem(run.starting()) == null
                    && nowSeconds - Long.parseLong(Files.readString(run.starting()).trim()) < EVERY_SECONDS) {
                return false;
            }
        } catch (IOException | NumberFormatException e) {
            // no record of a recent start
        }
        if (Files.isDirectory(run.dir())) {
            // not through a link another user could have left in its place
            try (OutputStream out = Files.newOutputStream(run.starting(), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS)) {
                out.write((nowSeconds + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
        return true;
    }
}
