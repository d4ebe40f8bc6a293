package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.language.JqParser;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * jq's command line as jq reads it: short flags in any bundle ({@code -nr}), options that take two
 * words ({@code --arg NAME VALUE}, {@code --rawfile NAME FILE}), the first operand as the filter
 * (parsed by {@link JqParser}), the rest as files read, or as values after {@code --args}.
 */
public final class JqCheck implements ProgramCheck {

    private static final String SHORT_FLAGS = "rcesnjaSCMRb0hV";
    private static final Set<String> LONG_FLAGS = Set.of("--tab", "--args", "--jsonargs", "--raw-output", "--raw-output0",
            "--compact-output", "--exit-status", "--slurp", "--null-input", "--join-output", "--sort-keys", "--raw-input",
            "--seq", "--stream", "--stream-errors", "--ascii-output", "--color-output", "--monochrome-output", "--unbuffered",
            "--binary", "--nul-output", "--help", "--version", "--build-configuration");
    private static final Set<String> NAME_AND_VALUE = Set.of("--arg", "--argjson");
    private static final Set<String> NAME_AND_FILE = Set.of("--slurpfile", "--rawfile");

    @Override
    public List<String> custom(CheckContext c, Invocation inv, ReadOnlyCommand entry, String sub, List<Field> before,
            List<Field> args) {
        return check(c, inv, args);
    }

    static List<String> check(CheckContext a, Invocation inv, List<Field> args) {
        Field filter = null;
        List<Field> files = new ArrayList<>();
        boolean positional = false;
        boolean optionsDone = false;
        for (int i = 0; i < args.size(); i++) {
            Field f = args.get(i);
            String t = f.plain();
            if (!optionsDone && f.mayBeOption() && !f.isLiteral()) {
                return List.of("the argument " + f.display() + " is computed at run time and could be an option");
            }
            if (!optionsDone && t.equals("--")) {
                optionsDone = true;
            } else if (!optionsDone && t.startsWith("--")) {
                if (NAME_AND_VALUE.contains(t) || NAME_AND_FILE.contains(t)) {
                    if (i + 2 >= args.size()) {
                        return List.of("the option " + t + " needs a name and a value");
                    }
                    if (NAME_AND_FILE.contains(t)) {
                        a.checkRead(args.get(i + 2), inv.scope, inv.span(), "reads");
                    }
                    i += 2;
                } else if (t.equals("--indent")) {
                    i++;
                } else if (LONG_FLAGS.contains(t)) {
                    positional |= t.equals("--args") || t.equals("--jsonargs");
                } else {
                    return List.of("the option " + t + " is not on the permitted list");
                }
            } else if (!optionsDone && t.startsWith("-") && t.length() > 1) {
                for (char c : t.substring(1).toCharArray()) {
                    if (SHORT_FLAGS.indexOf(c) < 0) {
                        return List.of("the option -" + c + " is not on the permitted list");
                    }
                }
            } else if (filter == null) {
                filter = f;
            } else if (!positional) {
                files.add(f);
            }
        }
        if (filter != null) {
            String problem = filter.hasUnknown() ? "the filter is computed at run time" : JqParser.problem(filter.plain());
            if (problem != null) {
                a.add(problem.contains("environment") ? Checks.PRINTS_ENVIRONMENT : Checks.PROGRAM_LANGUAGE, Tier.ASK,
                        "jq: " + problem, inv.span());
            }
        }
        for (Field f : files) {
            a.checkRead(f, inv.scope, inv.span(), "reads");
        }
        return List.of();
    }
}
