package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import java.nio.file.Path;
import java.util.Map;

/** Judges a script in a dialect that is not a POSIX shell's (PowerShell, cmd). */
@FunctionalInterface
public interface DialectJudge {

    /**
     * Judges {@code text} in {@code dialect}, its findings added to the analyzer's.
     *
     * @param env the variables known to the script
     * @param cwd its working directory, or null when it is not known
     * @param depth how deeply it is nested
     * @param span where every reason points, or null for the script's own spans
     */
    void judge(Analyzer a, String text, Dialect dialect, Map<String, String> env, Path cwd, int depth, Span span);
}
