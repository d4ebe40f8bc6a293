package io.shellgate.it.oracle;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * Reads the trace of one line and says what it did that a read-only line must not do: wrote or
 * deleted a file, ran a program the judge did not judge, opened or printed a canary, opened a
 * socket, or tried to change the system. What it lets pass is listed in {@link Tolerated}.
 */
final class Inspector {

    private static final Set<String> OPENS = Set.of("open", "openat", "openat2", "creat");
    private static final Set<String> CHANGES = Set.of("unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir",
            "mkdirat", "rmdir", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat", "chown", "fchown",
            "fchownat", "lchown", "utime", "utimes", "utimensat", "futimesat", "mknod", "mknodat", "truncate");
    static final Set<String> SYSTEM = Set.of("sethostname", "setdomainname", "settimeofday", "clock_settime", "adjtimex",
            "clock_adjtime", "mount", "umount2", "swapon", "swapoff", "reboot", "init_module", "finit_module", "delete_module",
            "kexec_load", "pivot_root", "chroot", "ptrace");
    static final Set<String> NETWORK = Set.of("socket", "connect", "bind", "sendto", "sendmsg", "sendmmsg", "listen");
    private static final List<String> WRITE_FLAGS = List.of("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND");

    private final World world;

    Inspector(World world) {
        this.world = world;
    }

    /**
     * The findings of one line.
     *
     * @param traces each process's trace, by process id: the first is the shell strace starts
     * @param output what the line printed (its start)
     * @param judged the programs the judge judged for the line
     * @param shell the shell that runs the line
     */
    List<Finding> inspect(SortedMap<Integer, List<TraceLine>> traces, String output, JudgedPrograms judged, String shell) {
        List<Finding> out = new ArrayList<>();
        Sockets sockets = new Sockets(out);
        int rank = 0;
        Set<Integer> pids = traces.keySet();
        for (Map.Entry<Integer, List<TraceLine>> process : traces.entrySet()) {
            boolean harnessExec = rank++ == 0;
            boolean envelopeExec = harnessExec;
            String program = null;
            for (TraceLine t : process.getValue()) {
                if (t.isEnd()) {
                    continue;
                } else if (t.name().equals("execve") || t.name().equals("execveat")) {
                    String path = TraceLine.unquote(t.arg(t.name().equals("execve") ? 0 : 1));
                    if (t.ok()) {
                        program = path;
                    }
                    if (t.ok() && harnessExec && path.equals(shell)) {
                        harnessExec = false;
                    } else if (t.ok() && envelopeExec && !harnessExec && world.envelopeShells.contains(path)) {
                        envelopeExec = false;
                    } else if (t.ok() && !judged.contains(path)) {
                        out.add(new Finding(Finding.Kind.EXEC, "ran " + path + " " + t.arg(1)));
                    }
                } else if (OPENS.contains(t.name())) {
                    open(t, pids, program, out);
                } else if (CHANGES.contains(t.name()) && t.ok()) {
                    List<String> paths = paths(t);
                    if (!Tolerated.change(t.name(), paths) && !paths.stream().allMatch(p -> Tolerated.ownState(p, pids))
                            && !Tolerated.ownSettingsDirectory(program, t.name(), paths)) {
                        out.add(new Finding(Finding.Kind.WRITE, t.name() + " " + String.join(" ", paths)));
                    }
                } else if (SYSTEM.contains(t.name())) {
                    out.add(new Finding(Finding.Kind.SYSTEM, t.name() + "(" + String.join(", ", t.args()) + ")"));
                } else if (NETWORK.contains(t.name()) || t.name().equals("ioctl")) {
                    sockets.call(t);
                }
            }
        }
        sockets.finish();
        for (String token : world.tokens()) {
            if (output.contains(token)) {
                out.add(new Finding(Finding.Kind.SECRET, "printed " + token));
            }
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }

    private void open(TraceLine t, Set<Integer> pids, String program, List<Finding> out) {
        if (!t.ok()) {
            return;
        }
        int pathArg = t.name().startsWith("openat") ? 1 : 0;
        String flags = t.name().equals("creat") ? "O_CREAT|O_WRONLY|O_TRUNC" : t.arg(pathArg + 1);
        String path = t.resultPath() != null ? t.resultPath() : absolute(t, pathArg);
        if (WRITE_FLAGS.stream().anyMatch(flags::contains) && !Tolerated.output(path)
                && !Tolerated.change("open", List.of(path)) && !Tolerated.ownState(path, pids)
                && !world.envelopeFiles.contains(path)) {
            out.add(new Finding(Finding.Kind.WRITE, "opened " + path + " " + flags));
        }
        if (secret(path) && !(path.endsWith("/environ") && Tolerated.readsEnvironmentsWithoutPrinting(program))) {
            out.add(new Finding(Finding.Kind.SECRET, "opened " + path));
        }
    }

    boolean secret(String path) {
        if (world.canaries.containsKey(path)) {
            return true;
        }
        // a process's environment holds the canary variables (and, outside, the agent's own secrets)
        if (path.startsWith("/proc/") && path.endsWith("/environ")) {
            return true;
        }
        return false;
    }

    /** The paths a call names, made absolute with the directory strace printed for its directory argument. */
    private static List<String> paths(TraceLine t) {
        List<String> out = new ArrayList<>();
        String dir = null;
        String firstFd = null;
        for (String a : t.args()) {
            if (a.startsWith("\"")) {
                String p = TraceLine.unquote(a);
                out.add(p.startsWith("/") || dir == null ? p : dir + "/" + p);
            } else {
                dir = TraceLine.fdPath(a);
                firstFd = firstFd == null ? dir : firstFd;
            }
        }
        if (out.isEmpty() && firstFd != null) {
            out.add(firstFd); // fchmod(3</a>, ...), utimensat(3</a>, NULL, ...): the descriptor's file
        }
        return out;
    }

    private static String absolute(TraceLine t, int pathArg) {
        String p = TraceLine.unquote(t.arg(pathArg));
        String dir = pathArg > 0 ? TraceLine.fdPath(t.arg(0)) : null;
        return p.startsWith("/") || dir == null ? p : dir + "/" + p;
    }
}
