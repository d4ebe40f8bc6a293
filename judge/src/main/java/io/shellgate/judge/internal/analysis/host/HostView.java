package io.shellgate.judge.internal.analysis.host;

import io.shellgate.judge.internal.analysis.model.Field;
import java.nio.file.Path;
import java.util.List;

/**
 * What the judge asks the machine: where a command name resolves, whether a directory is trusted,
 * what a pattern matches, what a repository's git config does. The real view reads the file
 * system; the example view answers the same for every machine, so that policy examples give the
 * same result everywhere.
 */
public interface HostView {

    /**
     * Resolves a command name the way {@code execvp} would.
     *
     * @param name a name without a slash (looked up in {@code path}) or a path
     * @param path the effective {@code PATH}, or null when it is unknown
     */
    Resolution resolve(String name, String path, Path cwd);

    boolean isDirectory(Path path);

    /** The path with symbolic links resolved, or null when it does not exist. */
    Path realPath(Path path);

    /**
     * Where the chain of symbolic links at {@code path} ends, whether or not that exists (a link to a
     * history file not written yet): {@code path} itself when it is not a link, null when it cannot be read.
     */
    Path linkTarget(Path path);

    /**
     * The text of a script a shell would read ({@code . FILE}): a regular file of at most
     * {@link #MAX_SCRIPT} characters, "" for {@code /dev/null}, null for anything else or what cannot be read.
     */
    String scriptText(Path path);

    /** The longest file {@link #scriptText} reads. */
    int MAX_SCRIPT = 65_536;

    /**
     * The existing paths a file name pattern matches, or null when there are more than
     * {@code limit} or the pattern cannot be expanded here.
     */
    List<Path> glob(Path cwd, Field pattern, int limit);

    /**
     * A path under {@code dir} (breadth first, within a bounded number of entries, skipping
     * dependency and build directories) that {@code test} accepts, or null.
     */
    String findInside(Path dir, String key, java.util.function.Predicate<String> candidate,
            java.util.function.Predicate<String> test);

    /**
     * What git itself says about {@code cwd}: its repository, the settings that apply there, its
     * submodules' (see {@link GitProbe}); {@code env} holds the variables that choose them.
     */
    GitRepository git(Path cwd, java.util.Map<String, String> env);

    /** The git program {@link #git} asks, or null when this view asks none (or no git was found). */
    default Path gitProgram() {
        return null;
    }

    /**
     * The first of {@code names} (paths relative to a directory, such as {@code .mvn/jvm.config})
     * that exists in {@code cwd} or a directory above it, as an absolute path; null when none does.
     */
    String projectFile(Path cwd, List<String> names);

    /** Where a command name led. */
    record Resolution(Kind kind, Path path, boolean trusted, String why) {

        public enum Kind {
            FILE,
            NOT_FOUND,
            UNKNOWN
        }

        static Resolution notFound() {
            return new Resolution(Kind.NOT_FOUND, null, true, "not found");
        }

        public static Resolution unknown(String why) {
            return new Resolution(Kind.UNKNOWN, null, false, why);
        }
    }
}
