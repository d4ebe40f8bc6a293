package io.shellgate.interceptor.internal;

import java.nio.file.Path;
import java.util.Map;

/** A way to judge and review a process: the judge in this JVM, or the judge server. */
interface Backend {

    /**
     * Judges {@code line} for a process that would run in {@code cwd} with {@code env}, and
     * reviews the verdict. Never returns a runnable outcome for what it could not judge.
     */
    ProcessOutcome decide(JudgeLine line, Map<String, String> env, Path cwd) throws Exception;
}
