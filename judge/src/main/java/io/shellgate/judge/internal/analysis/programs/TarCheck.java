package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tar -t}: archive listings, with tar's traditional first argument ({@code tar tzf x}) as
 * well as its options. Its other modes write files.
 */
public final class TarCheck implements ProgramCheck {

    /** Letters of tar's traditional bundle that take the next argument as their value. */
    private static final String TAR_VALUE_LETTERS = "bCfFgHIKLNTVX";

    @Override
    public List<String> custom(CheckContext a, Invocation inv, ReadOnlyCommand entry, String sub, List<Field> before,
            List<Field> args) {
        List<Field> words = new ArrayList<>();
        int next = 0;
        if (!args.isEmpty() && args.getFirst().isLiteral() && !args.getFirst().plain().startsWith("-")) {
            // tar tzf x.tar.gz: each letter an option, and the ones that take a value take the next words in turn
            String bundle = args.getFirst().plain();
            next = 1;
            for (char c : bundle.toCharArray()) {
                words.add(Field.literal("-" + c));
                if (TAR_VALUE_LETTERS.indexOf(c) >= 0) {
                    if (next >= args.size()) {
                        return List.of("the option -" + c + " needs a value");
                    }
                    words.add(args.get(next++));
                }
            }
        }
        words.addAll(args.subList(next, args.size()));
        OptionParser.Parsed parsed = a.policy().readOnlyParsers.get(entry).parse(words, false);
        if (!parsed.problems().isEmpty()) {
            return parsed.problems();
        }
        if (!parsed.has("-t") && !parsed.has("--list")) {
            return List.of("tar without -t (list) creates, extracts or changes archives");
        }
        for (OptionParser.Opt o : parsed.options()) {
            if ((o.name().equals("-f") || o.name().equals("--file")) && o.value() != null && o.value().plain().contains(":")
                    && !parsed.has("--force-local")) {
                return List.of("an archive name with a colon (" + o.value().display() + ") is a file on another host,"
                        + " which tar reaches with rsh or ssh");
            }
            a.optionValue(inv, o);
        }
        if (!parsed.dynamic().isEmpty()) {
            return List.of("the argument " + parsed.dynamic().getFirst().display() + " is computed at run time");
        }
        return List.of();
    }
}
