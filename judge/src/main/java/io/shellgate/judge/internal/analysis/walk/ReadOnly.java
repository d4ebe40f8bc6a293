package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.internal.analysis.host.HostView;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Matches an invocation against the read-only list: every option permitted, operands of the
 * right kind, the program trusted, no sensitive path read, and the command's own language
 * (sed scripts, awk programs, find expressions, git subcommands) free of writes and execution.
 */
public final class ReadOnly {

    public enum Outcome {
        /** A read-only entry took the command (further reasons may still ask). */
        ACCEPTED,
        /** Entries exist for the name, but none permits these arguments. */
        REJECTED,
        /** No entry knows the name. */
        NOT_LISTED
    }

    private ReadOnly() {}

    static Outcome check(Analyzer a, Invocation inv, String program, HostView.Resolution resolution,
            boolean builtin) {
        List<ReadOnlyCommand> entries = a.policy.readOnly.get(program);
        if (entries == null) {
            return Outcome.NOT_LISTED;
        }
        List<Field> args = inv.argv.subList(1, inv.argv.size());
        boolean hasSubcommands = false;
        boolean subcommandMatched = false;
        // problems of the entries for the subcommand given (git grep) say more than those of the bare program's (git --version)
        List<String> subcommandProblems = new ArrayList<>();
        List<String> programProblems = new ArrayList<>();
        for (ReadOnlyCommand entry : entries) {
            for (String command : entry.commands()) {
                String[] words = command.split(" ");
                if (!words[0].equals(program)) {
                    continue;
                }
                List<Field> rest = args;
                List<Field> before = List.of();
                if (words.length > 1) {
                    hasSubcommands = true;
                    rest = Rules.afterSubcommand(a, program, args, words[1]);
                    if (rest == null) {
                        continue;
                    }
                    subcommandMatched = true;
                    before = args.subList(0, args.size() - rest.size() - 1);
                }
                int mark = a.findings.mark();
                List<String> problems = globals(a, program, before);
                if (problems.isEmpty()) {
                    problems = accept(a, inv, entry, words.length > 1 ? words[1] : null, before, rest);
                }
                if (problems.isEmpty()) {
                    OptionValues.judgeCollectedCode(a, inv);
                    trust(a, inv, program, resolution, builtin);
                    a.add(entry.id(), Tier.ALLOW, program + (words.length > 1 ? " " + words[1] : "") + ": " + entry.reason(), inv.span());
                    return Outcome.ACCEPTED;
                }
                // reasons an entry added before it gave up are dropped with it
                a.findings.reasons.subList(mark, a.findings.reasons.size()).clear();
                for (String p : problems) {
                    (words.length > 1 ? subcommandProblems : programProblems).add(program + ": " + p);
                }
            }
        }
        inv.problems.addAll(subcommandMatched ? subcommandProblems : programProblems);
        OptionValues.judgeCollectedCode(a, inv);
        // "git commit": a subcommand no entry lists is simply not read-only
        inv.unknownSubcommand = hasSubcommands && !subcommandMatched && !args.isEmpty() && args.getFirst().isLiteral()
                && !args.getFirst().plain().startsWith("-");
        return inv.problems.isEmpty() ? Outcome.NOT_LISTED : Outcome.REJECTED;
    }

    /**
     * The options before a subcommand ({@code systemctl -H host status}) must be on the program's
     * read-only list of global options: the others reach another host or machine, or change what
     * runs. git has a check of its own ({@code -C DIR}).
     */
    private static List<String> globals(Analyzer a, String program, List<Field> before) {
        if (before.isEmpty() || program.equals("git")) {
            return List.of();
        }
        Set<String> readOnly = a.policy.readOnlyGlobalOptions.getOrDefault(program, Set.of());
        for (Field f : before) {
            String t = f.isLiteral() ? f.plain() : "";
            String name = t.startsWith("--") && t.contains("=") ? t.substring(0, t.indexOf('=')) : t;
            if (!readOnly.contains(name)) {
                return List.of("the global option " + f.display() + " is not one that only shows " + program + "'s state");
            }
        }
        return List.of();
    }

    /** Asks when the program that runs is not a trusted file. */
    static void trust(Analyzer a, Invocation inv, String program, HostView.Resolution r, boolean builtin) {
        if (builtin || r == null) {
            return;
        }
        switch (r.kind()) {
            case FILE -> {
                if (!r.trusted()) {
                    a.add(Checks.UNTRUSTED_PROGRAM, Tier.ASK, program + " resolves to " + r.path() + ", which is not trusted: "
                            + r.why(), inv.span());
                }
            }
            case UNKNOWN -> a.add(Checks.UNTRUSTED_PROGRAM, Tier.ASK, "shellgate cannot tell which " + program
                    + " would run: " + r.why(), inv.span());
            case NOT_FOUND -> {
                if (!r.trusted()) {
                    a.add(Checks.UNTRUSTED_PROGRAM, Tier.ASK, r.why(), inv.span());
                }
            }
        }
    }

    /** Why {@code entry} does not take these arguments; empty when it does. */
    private static List<String> accept(Analyzer a, Invocation inv, ReadOnlyCommand entry, String sub,
            List<Field> before, List<Field> args) {
        List<String> problems = new ArrayList<>();
        if (args.size() < entry.minArguments()) {
            problems.add("it needs at least " + entry.minArguments() + " argument(s) to be read-only");
            return problems;
        }
        ProgramCheck check = a.extensions.programs().get(entry.checker());
        List<String> custom = check == null ? null : check.custom(a.context, inv, entry, sub, before, args);
        if (custom != null) {
            return custom;
        }
        OptionParser.Parsed parsed = a.policy.readOnlyParsers.get(entry).parse(args, false);
        OptionValues.judgeCode(a, inv, parsed);
        problems.addAll(parsed.problems());
        if (!problems.isEmpty()) {
            return problems;
        }
        if (parsed.options().size() + parsed.operands().size() < entry.minArguments()) {
            // "bash --" is one argument, and no option: bash then reads commands from its input
            problems.add("it needs at least " + entry.minArguments() + " option(s) or operand(s) to be read-only");
            return problems;
        }
        List<Field> operands = parsed.operands();
        switch (entry.operands()) {
            case NONE -> {
                if (!operands.isEmpty()) {
                    problems.add("it takes no operands here");
                }
            }
            case TEXT -> {
                // printed or compared, never opened
            }
            case FILES, PATTERN_FILES -> {
                List<Field> files = operands;
                if (entry.operands() == ReadOnlyCommand.Operands.PATTERN_FILES && !parsed.hasAny(entry.patternOptions())
                        && !files.isEmpty()) {
                    files = files.subList(1, files.size());
                }
                if (entry.maxOperands() >= 0 && operands.size() > entry.maxOperands()) {
                    problems.add("it takes at most " + entry.maxOperands() + " operand(s) here");
                    return problems;
                }
                files(a, inv, entry, parsed, files);
            }
        }
        if (entry.maxOperands() >= 0 && operands.size() > entry.maxOperands()) {
            problems.add("it takes at most " + entry.maxOperands() + " operand(s) here");
        }
        if (!problems.isEmpty()) {
            return problems;
        }
        boolean anyOption = entry.options().stream().anyMatch(o -> o.arity() == io.shellgate.rules.OptionSpec.Arity.ANY);
        if (!parsed.dynamic().isEmpty() && !(anyOption && entry.operands() == ReadOnlyCommand.Operands.TEXT)) {
            a.add(Checks.DYNAMIC_ARGUMENT, Tier.ASK, "the argument " + parsed.dynamic().getFirst().display()
                    + " is computed at run time and could be an option", inv.span());
        }
        for (OptionParser.Opt o : parsed.options()) {
            optionValue(a, inv, o);
        }
        if (check != null) {
            check.after(a.context, inv, entry, parsed);
        } else if (!entry.checker().isEmpty()) {
            a.extensions.builtins().get(entry.checker()).check(a, inv);
        }
        return problems;
    }

    /** Programs that show a file's metadata, not its contents. */
    private static final Set<String> METADATA = Set.of("ls", "dir", "vdir", "stat");

    private static void files(Analyzer a, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed,
            List<Field> files) {
        boolean recursive = entry.recursiveOptions().contains("*") || parsed.hasAny(entry.recursiveOptions());
        boolean skipHidden = !entry.hiddenOptions().isEmpty() && !parsed.hasAny(entry.hiddenOptions());
        // ls and stat show what a file is (name, size, times), never what it holds: only a directory's names count
        String program = CommandJudge.basename(inv.argv.getFirst().plain());
        boolean metadata = METADATA.contains(program);
        // grep -R, rg -L: the links met inside the tree are read where they lead
        boolean follow = parsed.hasAny(List.of("-R", "--dereference-recursive", "--follow"))
                || (program.equals("rg") || program.equals("ag")) && parsed.hasAny(List.of("-L"));
        for (Field f : files) {
            if (!Sensitive.checkRead(a, f, inv.scope, inv.span(), "reads", metadata) && recursive) {
                Sensitive.checkRecursive(a, f, inv.scope, inv.span(), name -> true, skipHidden, follow);
            }
        }
        if (recursive && files.isEmpty()) {
            Sensitive.checkRecursive(a, Field.literal("."), inv.scope, inv.span(), name -> true, skipHidden, follow);
        }
    }

    /** Checks an option's value by its kind: files read or written, code. */
    static void optionValue(Analyzer a, Invocation inv, OptionParser.Opt o) {
        OptionValues.check(a, inv, o);
    }
}
