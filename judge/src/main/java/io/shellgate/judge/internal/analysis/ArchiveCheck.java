package io.shellgate.judge.internal.analysis;

import io.shellgate.rules.ReadOnlyCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Archive listings: {@code tar -t} (with tar's traditional first argument, {@code tar tzf x}, as
 * well as its options) and {@code unzip -l}/{@code zipinfo}. Their other modes write files.
 */
final class ArchiveCheck {

    /** Letters of tar's traditional bundle that take the next argument as their value. */
    private static final String TAR_VALUE_LETTERS = "bCfFgHIKLNTVX";
    private static final Set<Character> UNZIP_LETTERS = Set.of('l', 'v', 't', 'q', 'z', 'C', 'M', 's', '1', '2', 'h', 'm',
            'Z');

    private ArchiveCheck() {}

    static List<String> tar(Analyzer a, CommandJudge.Invocation inv, ReadOnlyCommand entry, List<Field> args) {
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
        OptionParser.Parsed parsed = a.policy.readOnlyParsers.get(entry).parse(words, false);
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
            ReadOnly.optionValue(a, inv, o);
        }
        if (!parsed.dynamic().isEmpty()) {
            return List.of("the argument " + parsed.dynamic().getFirst().display() + " is computed at run time");
        }
        return List.of();
    }

    static List<String> unzip(Analyzer a, CommandJudge.Invocation inv, String program, List<Field> args) {
        boolean listing = program.equals("zipinfo");
        Field archive = null;
        for (Field f : args) {
            if (!f.isLiteral()) {
                return List.of("the argument " + f.display() + " is computed at run time");
            }
            String t = f.plain();
            if (archive == null && t.startsWith("-") && t.length() > 1) {
                for (char c : t.substring(1).toCharArray()) {
                    if (!UNZIP_LETTERS.contains(c)) {
                        return List.of("the option -" + c + " is not on the permitted list");
                    }
                    listing |= c == 'l' || c == 'v' || c == 't' || c == 'Z' || c == 'z';
                }
            } else if (archive == null) {
                archive = f;
            } else if (t.equals("-d") || t.startsWith("-") && !t.equals("-x")) {
                return List.of("unzip " + t + " after the archive is not on the permitted list");
            }
        }
        if (!listing) {
            return List.of(program + " without -l, -v, -t or -Z extracts files");
        }
        if (archive != null) {
            Sensitive.checkRead(a, archive, inv.scope, inv.span(), "reads");
        }
        return List.of();
    }
}
