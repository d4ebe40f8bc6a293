package io.shellgate.judge.internal.analysis.host;

import io.shellgate.judge.internal.analysis.model.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The machine as one judgement saw it: every question the analysis asked and the answer it got,
 * each kept as a test that asks the same question again and compares the answer.
 */
public final class RecordingHostView implements HostView {

    private final HostView host;
    private final List<Predicate<HostView>> answers = new ArrayList<>();
    /**
     * The answers so far by question: a question asked again within the judgement gets the same
     * answer without asking the machine again (a line of a thousand "ls" resolves ls once).
     */
    private final Map<List<Object>, Object> asked = new HashMap<>();

    public RecordingHostView(HostView host) {
        this.host = host;
    }

    /** The questions asked so far, each true when the machine still gives the same answer. */
    public List<Predicate<HostView>> answers() {
        return List.copyOf(answers);
    }

    /** Asks the machine, and keeps the question with its answer. */
    private <T> T ask(Function<HostView, T> question) {
        T answer = question.apply(host);
        answers.add(h -> Objects.equals(answer, question.apply(h)));
        return answer;
    }

    /** The same, once per question: {@code key} names the question. */
    @SuppressWarnings("unchecked")
    private <T> T ask(List<Object> key, Function<HostView, T> question) {
        if (asked.containsKey(key)) {
            return (T) asked.get(key);
        }
        T answer = ask(question);
        asked.put(key, answer);
        return answer;
    }

    @Override
    public Resolution resolve(String name, String path, Path cwd) {
        return ask(Arrays.asList("resolve", name, path, cwd), h -> h.resolve(name, path, cwd));
    }

    @Override
    public Path gitProgram() {
        return ask(List.of("git-program"), HostView::gitProgram);
    }

    @Override
    public boolean isDirectory(Path path) {
        return ask(List.of("directory", path), h -> h.isDirectory(path));
    }

    @Override
    public Path realPath(Path path) {
        return ask(List.of("real", path), h -> h.realPath(path));
    }

    @Override
    public String scriptText(Path path) {
        return ask(List.of("script", path), h -> h.scriptText(path));
    }

    @Override
    public Path linkTarget(Path path) {
        return ask(List.of("link", path), h -> h.linkTarget(path));
    }

    @Override
    public List<Path> glob(Path cwd, Field pattern, int limit) {
        // a copy: the list kept must not change with what the analysis does to the one it gets
        return ask(h -> {
            List<Path> matches = h.glob(cwd, pattern, limit);
            return matches == null ? null : List.copyOf(matches);
        });
    }

    @Override
    public String findInside(Path dir, String key, Predicate<String> candidate, Predicate<String> test) {
        return ask(h -> h.findInside(dir, key, candidate, test));
    }

    @Override
    public GitRepository git(Path cwd, Map<String, String> env) {
        return ask(List.of("git", cwd, env), h -> h.git(cwd, env));
    }

    @Override
    public String projectFile(Path cwd, List<String> names) {
        return ask(h -> h.projectFile(cwd, names));
    }
}
