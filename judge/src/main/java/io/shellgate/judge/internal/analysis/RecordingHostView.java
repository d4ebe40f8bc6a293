package io.shellgate.judge.internal.analysis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The machine as one judgement saw it: every question the analysis asked and the answer it got,
 * each kept as a test that asks the same question again and compares the answer.
 */
final class RecordingHostView implements HostView {

    private final HostView host;
    private final List<Predicate<HostView>> answers = new ArrayList<>();

    RecordingHostView(HostView host) {
        this.host = host;
    }

    /** The questions asked so far, each true when the machine still gives the same answer. */
    List<Predicate<HostView>> answers() {
        return List.copyOf(answers);
    }

    @Override
    public Resolution resolve(String name, String path, Path cwd) {
        Resolution r = host.resolve(name, path, cwd);
        answers.add(h -> Objects.equals(r, h.resolve(name, path, cwd)));
        return r;
    }

    @Override
    public boolean isDirectory(Path path) {
        boolean d = host.isDirectory(path);
        answers.add(h -> d == h.isDirectory(path));
        return d;
    }

    @Override
    public Path realPath(Path path) {
        Path real = host.realPath(path);
        answers.add(h -> Objects.equals(real, h.realPath(path)));
        return real;
    }

    @Override
    public List<Path> glob(Path cwd, Field pattern, int limit) {
        List<Path> matches = host.glob(cwd, pattern, limit);
        List<Path> kept = matches == null ? null : List.copyOf(matches);
        answers.add(h -> Objects.equals(kept, h.glob(cwd, pattern, limit)));
        return matches;
    }

    @Override
    public String findInside(Path dir, String key, Predicate<String> candidate, Predicate<String> test) {
        String found = host.findInside(dir, key, candidate, test);
        answers.add(h -> Objects.equals(found, h.findInside(dir, key, candidate, test)));
        return found;
    }

    @Override
    public String gitConfigProblem(Path cwd) {
        String problem = host.gitConfigProblem(cwd);
        answers.add(h -> Objects.equals(problem, h.gitConfigProblem(cwd)));
        return problem;
    }
}
