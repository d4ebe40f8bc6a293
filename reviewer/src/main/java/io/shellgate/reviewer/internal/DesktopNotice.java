package io.shellgate.reviewer.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A desktop notification that an ask is waiting, for a person who is not at the terminal the
 * agent drives. It only tells: the answer still comes through {@code shellgate approvals --watch},
 * a channel the agent cannot write to. A notification's own buttons are not offered, because any
 * program of the same user can press them (synthetic input on X11, or owning
 * {@code org.freedesktop.Notifications} before the desktop's server is started for it).
 *
 * <p>Sent with {@code gdbus} (from {@code /usr/bin} or {@code /bin}, never from a PATH) to the
 * session bus that the gate's own environment names ({@code DBUS_SESSION_BUS_ADDRESS} of the
 * process that started the gate), never a command's. {@code SHELLGATE_DESKTOP_NOTICES=off} turns
 * it off; {@code SHELLGATE_DESKTOP_NOTICE_WAIT_SECONDS} (default 30) is how long an ask then waits
 * for someone to start watching.
 */
final class DesktopNotice {

    static final String SWITCH = "SHELLGATE_DESKTOP_NOTICES";
    static final String WAIT = "SHELLGATE_DESKTOP_NOTICE_WAIT_SECONDS";
    private static final int DEFAULT_WAIT_SECONDS = 30;
    private static final int MAX_WAIT_SECONDS = 600;
    private static final List<Path> GDBUS = List.of(Path.of("/usr/bin/gdbus"), Path.of("/bin/gdbus"));
    /** How long the notification server may take to take a notification. */
    private static final Duration CALL_LIMIT = Duration.ofSeconds(5);
    private static final int MAX_COMMAND = 300;

    private final String bus;
    private final Path gdbus;
    private final Duration wait;

    private DesktopNotice(String bus, Path gdbus, Duration wait) {
        this.bus = bus;
        this.gdbus = gdbus;
        this.wait = wait;
    }

    /** The notice of the gate's own environment, or null where there is no session bus, no gdbus, or it is turned off. */
    static DesktopNotice of(Map<String, String> gateEnv) {
        String bus = gateEnv.get("DBUS_SESSION_BUS_ADDRESS");
        if (bus == null || bus.isBlank() || "off".equalsIgnoreCase(gateEnv.getOrDefault(SWITCH, "").strip())) {
            return null;
        }
        Path gdbus = GDBUS.stream().filter(Files::isExecutable).findFirst().orElse(null);
        if (gdbus == null) {
            return null;
        }
        int seconds = DEFAULT_WAIT_SECONDS;
        String given = gateEnv.get(WAIT);
        if (given != null) {
            try {
                seconds = Math.max(1, Math.min(MAX_WAIT_SECONDS, Integer.parseInt(given.strip())));
            } catch (NumberFormatException e) {
                System.getLogger(DesktopNotice.class.getName()).log(System.Logger.Level.WARNING,
                        "{0}={1} is not a number of seconds; using {2}", WAIT, given, DEFAULT_WAIT_SECONDS);
            }
        }
        return new DesktopNotice(bus, gdbus, Duration.ofSeconds(seconds));
    }

    /** How long an ask waits for someone to start watching after the notice. */
    Duration waitFor() {
        return wait;
    }

    /** Shows that {@code command} waits for approval; whether a notification server took it. */
    boolean show(String command, Duration within) throws InterruptedException {
        String shown = command.length() > MAX_COMMAND ? command.substring(0, MAX_COMMAND) + "…" : command;
        String body = escapeMarkup(shown) + "\n\nTo answer, run in a terminal:\nshellgate approvals --watch\n(within "
                + within.toSeconds() + " s)";
        ProcessBuilder pb = new ProcessBuilder(gdbus.toString(), "call", "--session", "--timeout",
                String.valueOf(CALL_LIMIT.toSeconds()), "--dest", "org.freedesktop.Notifications", "--object-path",
                "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.Notify",
                variant("shellgate"), "uint32 0", variant("dialog-password"), variant("shellgate: a command waits for approval"),
                variant(body), "@as []", "@a{sv} {'urgency': <byte 2>}", "int32 " + within.toMillis());
        pb.environment().clear();
        pb.environment().put("DBUS_SESSION_BUS_ADDRESS", bus);
        pb.environment().put("PATH", "/usr/bin:/bin");
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        // discarded, not read: a read would wait for gdbus to end, past the time limit below
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.redirectErrorStream(true);
        try {
            Process p = pb.start();
            if (!p.waitFor(CALL_LIMIT.toMillis() + 2000, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return false;
            }
            if (p.exitValue() != 0) {
                System.getLogger(DesktopNotice.class.getName()).log(System.Logger.Level.DEBUG,
                        "no desktop notice: gdbus exited with {0}", p.exitValue());
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** A GVariant text literal of a string: GVariant's text format reads the escapes of a TOML basic string. */
    static String variant(String s) {
        return ApprovalWriter.quote(s);
    }

    /** Notification bodies may be markup (links, among others): the command is shown as text. */
    static String escapeMarkup(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c < 0x20 && c != '\n' || c == 0x7f ? ' ' : c);
            }
        }
        return sb.toString();
    }
}
