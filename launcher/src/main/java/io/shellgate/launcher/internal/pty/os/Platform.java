package io.shellgate.launcher.internal.pty.os;

import io.shellgate.launcher.internal.terminal.PseudoTerminal;
import io.shellgate.launcher.internal.terminal.UserTerminal;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/** The one place that looks at the OS: the pseudo-terminals and the user's terminal for this machine. */
public final class Platform {

    private static final String PTY4J_VERSION = "0.13.12";

    private Platform() {}

    /** Starts shells in pseudo-terminals (pty4j). */
    public static PseudoTerminal.Spawner spawner(Map<String, String> env) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String dir = os.contains("win") ? "win" : os.contains("mac") ? "darwin" : os.contains("freebsd") ? "freebsd" : "linux";
        String arch = System.getProperty("os.arch", "");
        String jnaArch = arch.equals("amd64") || arch.equals("x86_64") ? "x86-64" : arch;
        String jnaOs = dir.equals("win") ? "win32" : dir;
        Path cache = NativeFolder.cacheDir(env).resolve("pty4j-" + PTY4J_VERSION);
        // JNA loads its dispatch library from here instead of unpacking one into ~/.cache/JNA/temp
        Path jna = NativeFolder.extract("com/sun/jna/" + jnaOs + "-" + jnaArch + "/", cache.resolve("jna"));
        System.setProperty("jna.boot.library.path", jna.toString());
        System.setProperty("jna.nounpack", "true");
        return new Pty4jSpawner(NativeFolder.extract("resources/com/pty4j/native/" + dir + "/", cache.resolve(dir)).getParent());
    }

    /** The terminal this process was started on, or null on Windows (its console is not supported yet). */
    public static UserTerminal userTerminal() {
        if (System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("win")) {
            return null;
        }
        return new SttyTerminal();
    }
}
