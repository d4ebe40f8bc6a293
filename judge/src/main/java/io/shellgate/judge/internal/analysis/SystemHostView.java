package io.shellgate.judge.internal.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/** The real machine: the file system as the judging process sees it. */
final class SystemHostView implements HostView {

    private final TrustedDirectories trust;
    private final GitConfigInspector git = new GitConfigInspector();

    SystemHostView(TrustedDirectories trust) {
        this.trust = trust;
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
        for (String entry : path.split(":", -1)) {
            Path dir = entry.isEmpty() ? cwd : cwd.resolve(entry).normalize();
            Path candidate = dir.resolve(name);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return file(candidate, cwd);
            }
        }
        // nothing runs now; a later entry could be created in time in an untrusted directory
        for (String entry : path.split(":", -1)) {
            Path dir = entry.isEmpty() ? cwd : cwd.resolve(entry).normalize();
            String problem = trust.problem(dir, cwd);
            if (problem != null && Files.isDirectory(dir)) {
                return new Resolution(Resolution.Kind.NOT_FOUND, dir.resolve(name), false,
                        name + " is not installed, and PATH includes " + dir + ", where it could appear: " + problem);
            }
        }
        return Resolution.notFound();
    }

    private Resolution file(Path file, Path cwd) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            // a path that does not exist yet may exist when the command runs: its directory decides
            String problem = trust.problem(file.getParent(), cwd);
            return new Resolution(Resolution.Kind.NOT_FOUND, file, problem == null, problem == null ? "not found" : problem);
        }
        Path real;
        try {
            real = file.toRealPath();
        } catch (IOException e) {
            return new Resolution(Resolution.Kind.FILE, file, false, file + " cannot be resolved: " + e.getMessage());
        }
        String problem = trust.problem(file.getParent(), cwd);
        if (problem == null && !real.equals(file)) {
            problem = trust.problem(real.getParent(), cwd);
            if (problem != null) {
                problem = file + " is a link to " + real + ", and " + problem;
            }
        }
        if (problem == null) {
            problem = trust.fileProblem(real);
        }
        return new Resolution(Resolution.Kind.FILE, file, problem == null, problem == null ? "" : problem);
    }

    @Override
    public boolean isDirectory(Path path) {
        return Files.isDirectory(path);
    }

    @Override
    public Path realPath(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException | SecurityException e) {
            return null;
        }
    }

    @Override
    public List<Path> glob(Path cwd, Field pattern, int limit) {
        return Globber.expand(cwd, pattern, limit);
    }

    @Override
    public String findInside(Path dir, String key, java.util.function.Predicate<String> candidate,
            java.util.function.Predicate<String> test) {
        return TreeScan.find(dir, key, candidate, test);
    }

    @Override
    public String gitConfigProblem(Path cwd) {
        return git.problem(cwd);
    }
}
