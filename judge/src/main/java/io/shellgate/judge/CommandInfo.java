package io.shellgate.judge;

import io.shellgate.rules.Tier;
import java.util.List;

/**
 * One simple command the line would run, as the judge understood it.
 *
 * @param argv the words after quote removal and expansion, wrappers stripped; a word the judge
 *     could not compute is shown with {@code ?} for its unknown parts
 * @param wrappers the wrappers stripped from in front of it ({@code timeout}, {@code env})
 * @param resolved what the name resolved to: an absolute path, {@code builtin},
 *     {@code function}, {@code not found}, or {@code unknown}
 * @param tier the tier of this command on its own
 * @param depth how deeply it is nested in {@code bash -c}, {@code eval} and the like
 */
public record CommandInfo(List<String> argv, List<String> wrappers, String resolved, Tier tier, Span span, int depth) {

    public CommandInfo {
        argv = List.copyOf(argv);
        wrappers = List.copyOf(wrappers);
    }
}
