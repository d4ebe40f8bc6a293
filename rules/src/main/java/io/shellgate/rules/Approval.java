package io.shellgate.rules;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A remembered "always allow" for command lines the judge asks about: either one exact command
 * line, or a command prefix with constraints on the arguments after it. An approval never covers
 * a deny, nor anything the judge asks about for reasons other than the program itself (a write
 * through a redirection, a dangerous variable, an untrusted program, ...).
 *
 * @param id a stable id, unique in the merged policy
 * @param command the exact command line approved, or null for a prefix approval
 * @param prefix the words a command must start with (program name first), or empty for an
 *     exact approval
 * @param argsNone glob patterns no argument after the prefix may match
 * @param maxArgs how many arguments may follow the prefix, or null for any number
 * @param project the directory (and everything under it) the approval is limited to, or null
 * @param expires when the approval stops counting, or null for never
 * @param note who approved it and when, for people reading the file
 */
public record Approval(
        String id,
        String command,
        List<String> prefix,
        List<String> argsNone,
        Integer maxArgs,
        String project,
        Instant expires,
        String note,
        SourceLocation location,
        Layer layer) {

    /**
     * Programs that no prefix approval may start with: an "always allow" for a shell, an
     * interpreter, a privilege or wrapper command, or eval would allow everything.
     */
    public static final List<String> GENERIC_PROGRAMS = List.of(
            "sh", "bash", "zsh", "dash", "ksh", "mksh", "yash", "fish", "csh", "tcsh", "busybox", "pwsh", "powershell",
            "cmd", "python", "python2", "python3", "pypy", "pypy3", "perl", "ruby", "irb", "node", "nodejs", "deno", "bun",
            "php", "lua", "luajit", "tclsh", "wish", "osascript", "Rscript", "julia", "jshell", "groovy", "java",
            "awk", "gawk", "mawk", "nawk", "sed", "gsed", "sudo", "doas", "su", "pkexec", "run0", "runuser", "eval",
            "exec", "source", ".", "env", "xargs", "command", "builtin", "nohup", "nice", "ionice", "timeout", "stdbuf",
            "time", "watch", "parallel", "setsid", "chroot", "unshare", "nsenter", "flock", "script", "strace",
            "ltrace", "gdb", "ssh", "find", "fd", "npx", "uvx", "pipx", "dotnet", "docker", "podman", "kubectl");

    public Approval {
        Objects.requireNonNull(id, "id");
        prefix = List.copyOf(prefix);
        argsNone = List.copyOf(argsNone);
        note = note == null ? "" : note;
    }

    /** Whether {@code program} (a name or a path) is one no prefix approval may start with. */
    public static boolean isGeneric(String program) {
        return GENERIC_PROGRAMS.contains(program.substring(program.lastIndexOf('/') + 1));
    }

    /** Whether this approval is for one exact command line. */
    public boolean exact() {
        return command != null;
    }

    /** Whether the approval still counts at {@code now}. */
    public boolean activeAt(Instant now) {
        return expires == null || now.isBefore(expires);
    }
}
