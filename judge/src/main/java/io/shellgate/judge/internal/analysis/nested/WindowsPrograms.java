package io.shellgate.judge.internal.analysis.nested;

import io.shellgate.judge.internal.analysis.host.HostView;
import io.shellgate.judge.internal.windows.WindowsHost;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where a program name leads for PowerShell and cmd: every {@code PATHEXT} extension (unless the
 * name has one), in cmd's working directory first, then along {@code PATH} ({@code ;} between
 * entries in a Windows environment, {@code :} elsewhere, where the bare name is tried too).
 */
final class WindowsPrograms {

    private static final String DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD";

    private WindowsPrograms() {}

    static boolean windowsLike(Map<String, String> env) {
        String path = env.getOrDefault("PATH", env.getOrDefault("Path", ""));
        return env.containsKey("PATHEXT") || path.indexOf(';') >= 0;
    }

    static WindowsHost.Program resolve(HostView host, Map<String, String> env, Path cwd, String name, boolean cwdFirst) {
        if (name.isEmpty()) {
            return new WindowsHost.Program(null, true, "no name");
        }
        if (cwd == null) {
            return new WindowsHost.Program(null, false, "the working directory is not known here");
        }
        if (name.indexOf('/') >= 0 || name.indexOf('\\') >= 0) {
            return program(host.resolve(name.replace('\\', '/'), null, cwd));
        }
        boolean windows = windowsLike(env);
        List<String> exts = new ArrayList<>();
        for (String e : env.getOrDefault("PATHEXT", DEFAULT_PATHEXT).split(";")) {
            if (!e.isBlank()) {
                exts.add(e.strip().toLowerCase(Locale.ROOT));
            }
        }
        String lower = name.toLowerCase(Locale.ROOT);
        List<String> candidates = new ArrayList<>();
        if (exts.stream().anyMatch(lower::endsWith) || !windows) {
            candidates.add(name);
            // Windows compares names without case; on a case-sensitive file system try the usual spelling too
            candidates.add(lower);
        }
        for (String e : exts) {
            candidates.add(name + e);
            candidates.add(name + e.toUpperCase(Locale.ROOT));
        }
        List<String> dirs = new ArrayList<>();
        if (cwdFirst) {
            dirs.add("");
        }
        dirs.addAll(WindowsBridge.pathEntries(env));
        for (String dir : dirs) {
            Path d = dir.isEmpty() ? cwd : cwd.resolve(dir.replace('\\', '/')).normalize();
            for (String c : candidates) {
                HostView.Resolution r = host.resolve(d.resolve(c).toString(), null, cwd);
                if (r.kind() == HostView.Resolution.Kind.FILE) {
                    return program(r);
                }
            }
        }
        return cwdFirst
                ? new WindowsHost.Program(null, false, "not found; cmd looks in the working directory first, where it could appear")
                : new WindowsHost.Program(null, true, "not found");
    }

    private static WindowsHost.Program program(HostView.Resolution r) {
        return new WindowsHost.Program(r.path() == null ? null : r.path().toString(), r.trusted(), r.why());
    }
}
