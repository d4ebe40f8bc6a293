package io.shellgate.judge;

import io.shellgate.rules.Tier;
import java.util.List;

/**
 * One simple command the line would run, as the judge understood it.
 *
 * @param argv the words after quote removal and expansion, wrappers stripped; a word the judge
 *     could not compute is shown with {@code ?} for its unknown parts
 * @param wrappers the wrappers stripped from in front of it ({@code timeout}, {@code env})
 * @param resolved what the name resolved to: an absolute path, {@link #BUILTIN}, {@link #FUNCTION},
 *     {@link #NOT_FOUND} or {@link #UNKNOWN} (PowerShell also names a cmdlet, a script block or a program)
 * @param tier the tier of this command on its own
 * @param depth how deeply it is nested in {@code bash -c}, {@code eval} and the like
 */
public record CommandInfo(List<String> argv, List<String> wrappers, String resolved, Tier tier, Span span, int depth) {

    /** {@link #resolved()}: a built-in of the shell. */
    public static final String BUILTIN = "builtin";
    /** {@link #resolved()}: a shell function. */
    public static final String FUNCTION = "function";
    /** {@link #resolved()}: no program of that name where the shell would look. */
    public static final String NOT_FOUND = "not found";
    /** {@link #resolved()}: the judge could not tell (a name computed at run time, a machine it cannot ask). */
    public static final String UNKNOWN = "unknown";

    public CommandInfo {
        argv = List.copyOf(argv);
        wrappers = List.copyOf(wrappers);
    }
}
