package io.shellgate.judge.internal.analysis.host;

import io.shellgate.judge.internal.analysis.model.Field;
import java.nio.file.Path;
import java.util.List;

/**
 * The machine policy examples are judged on: every command name resolves to a trusted
 * {@code /usr/bin/NAME}, nothing else exists, the working directory is a repository without settings.
 */
public final class ExampleHostView implements HostView {

    public static final Path CWD = Path.of("/home/user/project");
    public static final String HOME = "/home/user";

    @Override
    public Resolution resolve(String name, String path, Path cwd) {
        if (name.contains("/")) {
            Path p = cwd.resolve(name).normalize();
            boolean system = p.startsWith("/usr") || p.startsWith("/bin") || p.startsWith("/sbin");
            return new Resolution(Resolution.Kind.FILE, p, system, system ? "" : p + " is not in a trusted directory");
        }
        return new Resolution(Resolution.Kind.FILE, Path.of("/usr/bin", name), true, "");
    }

    @Override
    public boolean isDirectory(Path path) {
        return path.equals(CWD) || path.equals(Path.of(HOME)) || path.getNameCount() <= 1;
    }

    @Override
    public String scriptText(Path path) {
        return null;
    }

    @Override
    public Path linkTarget(Path path) {
        return path;
    }

    @Override
    public Path realPath(Path path) {
        return null;
    }

    @Override
    public List<Path> glob(Path cwd, Field pattern, int limit) {
        return List.of();
    }

    @Override
    public String findInside(Path dir, String key, java.util.function.Predicate<String> candidate,
            java.util.function.Predicate<String> test) {
        return null;
    }

    @Override
    public GitRepository git(Path cwd, java.util.Map<String, String> env) {
        return new GitRepository(CWD.resolve(".git"), CWD, List.of(), List.of(), null);
    }

    @Override
    public String projectFile(Path cwd, List<String> names) {
        return null;
    }
}
