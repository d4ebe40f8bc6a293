package io.shellgate.launcher.internal.shell;

import io.shellgate.judge.Dialect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Chooses the shell that runs commands, in a documented order, resolved once per invocation.
 *
 * <p>On Unix: {@code --shell}, {@code $SHELLGATE_SHELL}, the policy's {@code shell} setting, then
 * {@code $SHELL} (unless it is shellgate itself: shellgate never runs itself), then {@code zsh},
 * {@code bash}, {@code sh} on {@code PATH}.
 *
 * <p>On Windows: the same explicit choices, then Git Bash (found next to {@code git} on
 * {@code PATH}, or in the standard install locations), {@code pwsh}, {@code powershell}, then
 * {@code cmd} from {@code %ComSpec%}.
 */
public final class ShellResolver {

    /** What the resolver may look at: the environment, the OS, and which files are executable. */
    public record Host(Map<String, String> env, boolean windows, Predicate<String> executable) {

        public static Host current(Map<String, String> env) {
            boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("windows");
            return new Host(env, windows, p -> Files.isRegularFile(Path.of(p)) && Files.isExecutable(Path.of(p)));
        }
    }

    private final Host host;

    public ShellResolver(Host host) {
        this.host = host;
    }

    /**
     * The shell to use.
     *
     * @param explicit {@code --shell} if given, else null
     * @param configured the policy's setting if any, else null
     * @param self the path of shellgate's own launcher, never chosen
     */
    public Optional<ShellChoice> resolve(String explicit, String configured, String self) {
        if (explicit != null && !explicit.isBlank()) {
            // a shell asked for by name is that shell or none: never a quiet substitute
            return find(explicit.strip(), "--shell", self);
        }
        List<String[]> candidates = new ArrayList<>();
        add(candidates, host.env().get("SHELLGATE_SHELL"), "$SHELLGATE_SHELL");
        add(candidates, configured, "the policy's shell setting");
        if (!host.windows()) {
            add(candidates, host.env().get("SHELL"), "$SHELL");
            candidates.add(new String[] {"zsh", "zsh on PATH"});
            candidates.add(new String[] {"bash", "bash on PATH"});
            candidates.add(new String[] {"sh", "sh on PATH"});
        }
        for (String[] c : candidates) {
            Optional<ShellChoice> found = find(c[0], c[1], self);
            if (found.isPresent()) {
                return found;
            }
        }
        return host.windows() ? windows(self) : Optional.empty();
    }

    private static void add(List<String[]> candidates, String value, String why) {
        if (value != null && !value.isBlank()) {
            candidates.add(new String[] {value.strip(), why});
        }
    }

    private Optional<ShellChoice> windows(String self) {
        Optional<ShellChoice> gitBash = gitBash();
        if (gitBash.isPresent()) {
            return gitBash;
        }
        for (String name : List.of("pwsh", "powershell")) {
            Optional<ShellChoice> found = find(name, name + " on PATH", self);
            if (found.isPresent()) {
                return found;
            }
        }
        String comSpec = env("ComSpec");
        if (comSpec != null && host.executable().test(comSpec)) {
            return Optional.of(new ShellChoice(comSpec, Dialect.CMD, "%ComSpec%"));
        }
        String cmd = Optional.ofNullable(env("SystemRoot")).orElse("C:\\Windows") + "\\System32\\cmd.exe";
        return host.executable().test(cmd) ? Optional.of(new ShellChoice(cmd, Dialect.CMD, "the system's cmd.exe"))
                : Optional.empty();
    }

    /** Git Bash: bin\bash.exe next to the Git install that provides git on PATH, or the standard locations. */
    private Optional<ShellChoice> gitBash() {
        List<String> roots = new ArrayList<>();
        for (String git : onPath("git")) {
            if (!host.executable().test(git)) {
                continue;
            }
            // ...\Git\cmd\git.exe, ...\Git\bin\git.exe or ...\Git\mingw64\bin\git.exe
            for (String p = parent(git); p != null; p = parent(p)) {
                if (host.executable().test(p + "\\bin\\bash.exe")) {
                    roots.add(p);
                    break;
                }
            }
        }
        for (String var : List.of("ProgramFiles", "ProgramW6432", "ProgramFiles(x86)", "LOCALAPPDATA")) {
            String base = env(var);
            if (base != null) {
                roots.add(base + "\\Git");
                roots.add(base + "\\Programs\\Git");
            }
        }
        for (String root : roots) {
            String bash = root + "\\bin\\bash.exe";
            if (host.executable().test(bash)) {
                return Optional.of(new ShellChoice(bash, Dialect.BASH, "Git Bash (" + root + ")"));
            }
        }
        return Optional.empty();
    }

    private static String parent(String windowsPath) {
        int slash = windowsPath.lastIndexOf('\\');
        return slash > 2 ? windowsPath.substring(0, slash) : null;
    }

    private Optional<ShellChoice> find(String name, String why, String self) {
        List<String> paths = name.contains("/") || name.contains("\\") ? List.of(name) : onPath(name);
        for (String p : paths) {
            if (!host.executable().test(p) || isSelf(p, self)) {
                continue;
            }
            return Optional.of(new ShellChoice(p, dialect(p), why));
        }
        return Optional.empty();
    }

    private boolean isSelf(String candidate, String self) {
        String base = basename(candidate).toLowerCase(Locale.ROOT);
        if (base.equals("shellgate") || base.startsWith("shellgate.")) {
            return true;
        }
        if (self == null || host.windows()) {
            return false;
        }
        try {
            return Files.exists(Path.of(candidate)) && Files.isSameFile(Path.of(candidate), Path.of(self));
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    private List<String> onPath(String name) {
        String path = env("PATH");
        List<String> out = new ArrayList<>();
        if (path == null) {
            return out;
        }
        String separator = host.windows() ? ";" : ":";
        String slash = host.windows() ? "\\" : "/";
        List<String> suffixes = host.windows() && !name.contains(".") ? List.of(".exe", ".cmd", ".bat", "") : List.of("");
        for (String dir : path.split(separator)) {
            if (dir.isEmpty()) {
                continue;
            }
            String d = dir.endsWith(slash) ? dir.substring(0, dir.length() - 1) : dir;
            for (String suffix : suffixes) {
                out.add(d + slash + name + suffix);
            }
        }
        return out;
    }

    private static String basename(String path) {
        int cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
        return cut >= 0 ? path.substring(cut + 1) : path;
    }

    /** The dialect a shell's scripts are in, from its name. */
    public static Dialect dialect(String shell) {
        String base = basename(shell).toLowerCase(Locale.ROOT);
        if (base.endsWith(".exe")) {
            base = base.substring(0, base.length() - 4);
        }
        return switch (base) {
            case "zsh" -> Dialect.ZSH;
            case "bash", "rbash" -> Dialect.BASH;
            case "pwsh", "powershell" -> Dialect.POWERSHELL;
            case "cmd" -> Dialect.CMD;
            default -> Dialect.SH;
        };
    }

    /** Environment lookups on Windows ignore case. */
    private String env(String name) {
        if (!host.windows()) {
            return host.env().get(name);
        }
        for (Map.Entry<String, String> e : host.env().entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }
}
