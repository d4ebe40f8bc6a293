package io.shellgate.launcher.internal.server;

import io.shellgate.client.ServerConnection;
import java.util.Optional;

/** The launcher's questions to the judge server (doctor, wrap), asked through {@link ServerConnection}. */
public final class ServerClient {

    /** A stopped or stuck server still accepts connections: its silence is not waited out. */
    private static final long REPLY_MILLIS = 5_000;

    private ServerClient() {}

    /** The server's pid, if one that can be believed answers a ping within {@value #REPLY_MILLIS} ms. */
    public static Optional<Long> ping(RunDir run) {
        return Optional.ofNullable(ServerConnection.ping(run.directory(), REPLY_MILLIS));
    }
}
