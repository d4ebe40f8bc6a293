package io.shellgate.judge.internal.windows;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.rules.Rule;
import io.shellgate.rules.Tier;
import java.util.List;
import java.util.Map;

/**
 * What the PowerShell and cmd judges need from the judge around them: a place for reasons and
 * commands, the policy's rules and path sets, the machine, and the judging of code in another
 * dialect. One host serves one script; {@link #nested} gives the host of a script it runs.
 */
public interface WindowsHost {

    /** Records a reason; inside a nested script every span points at the outer command. */
    void report(String rule, Tier tier, String message, Span span);

    /** Marks text that is only data (an argument echo prints), for the raw-text backstop. */
    void data(Span span);

    /** Records a simple command the line runs. */
    void command(List<String> argv, String resolved, Tier tier, Span span);

    /** The number of reasons so far, to tell the tier of what comes after. */
    int mark();

    /** The strictest tier among the reasons since {@code mark}. */
    Tier tierSince(int mark);

    /** Whether the line runs on Windows (the environment has {@code PATHEXT}, or {@code ;} between {@code PATH} entries). */
    boolean windows();

    /** The environment the line runs with. */
    Map<String, String> env();

    /**
     * The host of the same script with the working directory {@code location} (forward slashes;
     * null when it is not known, or a PowerShell drive that is not a file system): where programs
     * it starts are looked up and run, and where nested scripts start.
     */
    WindowsHost at(String location);

    /** The working directory, with forward slashes. */
    String cwd();

    /** The home directory ({@code USERPROFILE}, else {@code HOME}), with forward slashes, or null. */
    String home();

    /** Whether the policy's time budget is spent. */
    boolean pastDeadline();

    /** How deeply this script is nested in others. */
    int depth();

    /** The policy's nesting limit. */
    int maxDepth();

    /** The policy's deny and ask rules for this dialect (rules naming no dialect are bash rules). */
    List<Rule> rules(Dialect dialect);

    /** The rule of a built-in detector, or null when the policy disabled it. */
    Rule detector(String name);

    /** The patterns of a path set, or an empty list. */
    List<String> pathSet(String name);

    /** Why reading {@code path} (absolute, forward slashes) is sensitive, or null. */
    String sensitive(String path, boolean recursive);

    /** Whether the path (forward slashes) is an existing directory. */
    boolean isDirectory(String path);

    /** The path with symbolic links resolved (forward slashes), or null when it does not exist or cannot be resolved. */
    String realPath(String path);

    /**
     * The names in a directory: empty when it is none, null when it cannot be listed or holds
     * more than {@code limit} entries.
     */
    java.util.List<String> children(String dir, int limit);

    /**
     * A sensitive path under {@code dir} whose file name {@code names} accepts, from a bounded
     * breadth-first look, or null.
     */
    String sensitiveInside(String dir, java.util.function.Predicate<String> names);

    /** Whether an environment variable's name marks a secret ({@code GITHUB_TOKEN}, {@code AWS_SECRET_ACCESS_KEY}). */
    boolean secretVariable(String name);

    /** Where a program name leads on this machine. */
    Program program(String name, boolean searchWorkingDirectoryFirst);

    /**
     * Judges code a command runs, in its dialect, one level deeper; every reason points at
     * {@code span}; {@code windowsPowerShell} reads PowerShell code as 5.1 (no {@code &&}).
     */
    void nested(String code, Dialect dialect, boolean windowsPowerShell, Span span);

    /** Judges a program that is neither a cmdlet nor a builtin the way the bash judge would, by its literal words. */
    void nativeProgram(List<String> argv, Span span);

    /**
     * A resolved program.
     *
     * @param path where it is, or null when it was not found
     * @param trusted whether running it is only as dangerous as its name says
     * @param why why it is not trusted
     */
    record Program(String path, boolean trusted, String why) {}
}
