package io.shellgate.judge.internal.analysis.host;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.rules.FileFacts;
import java.nio.file.Path;
import java.util.List;

/** The real machine: the file system as the judging process sees it. */
public final class SystemHostView implements HostView {

    private final TrustedDirectories trust;
    private final FileFacts files;
    private static final GitProbe GIT = GitProbe.system();

    public SystemHostView(TrustedDirectories trust) {
        this(trust, FileFacts.live());
    }

    /**
     * A view that asks the file system through {@code files}. For one that records, the answers of
     * {@link #resolve}, {@link #isDirectory} and {@link #realPath} come from the questions it
     * records alone; the other questions make the record incomplete.
     */
    public SystemHostView(TrustedDirectories trust, FileFacts files) {
        this.trust = trust;
        this.files = files;
    }

    @Override
    public Resolution resolve(String name, String path, Path cwd) {
        if (name.isEmpty()) {
            return Resolution.notFound();
        }
        if (name.indexOf('/') >= 0) {
            return file(cwd.resolve(name).normalize(), cwd);
        }
        if (path == null) {
            return Resolution.unknown("PATH is not known");
        }
        // An empty PATH entry, or ".", means the working directory (execvp rules).
        String before = null;
        for (String entry : path.split(":", -1)) {
            Path dir = entry.isEmpty() ? cwd : cwd.resolve(entry).normalize();
            Path candidate = dir.resolve(name);
            if (files.isRegularFile(candidate) && files.isExecutable(candidate)) {
                Resolution found = file(candidate, cwd);
                if (found.trusted() && before != null) {
                    // the name is not there now, but someone else could put it there before it runs
                    return new Resolution(Resolution.Kind.FILE, candidate, false, "PATH searches " + before + " before "
                            + dir + ", so a program named " + name + " put there first would run instead");
                }
                return found;
            }
            if (before == null) {
                before = trust.plantable(entry, dir, files);
            }
        }
        // nothing runs now; a later entry could be created in time in an untrusted directory
        for (String entry : path.split(":", -1)) {
            Path dir = entry.isEmpty() ? cwd : cwd.resolve(entry).normalize();
            String problem = trust.problem(dir, cwd, files);
            if (problem != null && files.isDirectory(dir)) {
                return new Resolution(Resolution.Kind.NOT_FOUND, dir.resolve(name), false,
                        name + " is not installed, and PATH includes " + dir + ", where it could appear: " + problem);
            }
        }
        if (before != null) {
            // not found, and PATH has a directory where a program of that name could be put (or made) in time
            return new Resolution(Resolution.Kind.NOT_FOUND, null, false, name + " is not found on PATH, which searches "
                    + before + ", where a program of that name could be put before the line runs");
        }
        return Resolution.notFound();
    }

    private Resolution file(Path file, Path cwd) {
        if (!files.existsNoFollow(file)) {
            // a path that does not exist yet may exist when the command runs: its directory decides
            String problem = trust.problem(file.getParent(), cwd, files);
            return new Resolution(Resolution.Kind.NOT_FOUND, file, problem == null, problem == null ? "not found" : problem);
        }
        Path real = files.realPath(file);
        if (real == null) {
            return new Resolution(Resolution.Kind.FILE, file, false, file + " cannot be resolved (a link that leads nowhere,"
                    + " or a directory that cannot be read)");
        }
        String problem = trust.problem(file.getParent(), cwd, files);
        if (problem == null && !real.equals(file)) {
            problem = trust.problem(real.getParent(), cwd, files);
            if (problem != null) {
                problem = file + " is a link to " + real + ", and " + problem;
            }
        }
        if (problem == null) {
            problem = trust.fileProblem(real, files);
        }
        return new Resolution(Resolution.Kind.FILE, file, problem == null, problem == null ? "" : problem);
    }

    @Override
    public boolean isDirectory(Path path) {
        return files.isDirectory(path);
    }

    @Override
    public Path realPath(Path path) {
        return files.realPath(path);
    }

    @Override
    public String scriptText(Path path) {
        if (path.toString().equals("/dev/null")) {
            return "";
        }
        if (!files.isRegularFile(path)) {
            return null;
        }
        try {
            if (java.nio.file.Files.size(path) > MAX_SCRIPT) {
                return null;
            }
            String text = files.readString(path);
            return text.length() > MAX_SCRIPT ? null : text;
        } catch (java.io.IOException | java.io.UncheckedIOException | SecurityException e) {
            return null;
        }
    }

    @Override
    public Path linkTarget(Path path) {
        files.incomplete();
        return TreeScan.linkTarget(path);
    }

    @Override
    public List<Path> glob(Path cwd, Field pattern, int limit) {
        files.incomplete();
        return Globber.expand(cwd, pattern, limit);
    }

    @Override
    public String findInside(Path dir, String key, java.util.function.Predicate<String> candidate,
            java.util.function.Predicate<String> test) {
        files.incomplete();
        return TreeScan.find(dir, key, candidate, test);
    }

    @Override
    public Path gitProgram() {
        return GIT.program();
    }

    @Override
    public GitRepository git(Path cwd, java.util.Map<String, String> env) {
        files.incomplete();
        return GIT.repository(cwd, env);
    }

    @Override
    public String projectFile(Path cwd, List<String> names) {
        for (Path d = cwd; d != null; d = d.getParent()) {
            for (String name : names) {
                Path candidate = d.resolve(name);
                if (files.exists(candidate)) {
                    return candidate.toString();
                }
            }
        }
        return null;
    }
}
