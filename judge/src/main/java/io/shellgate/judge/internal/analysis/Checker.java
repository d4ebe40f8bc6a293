package io.shellgate.judge.internal.analysis;

import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The built-in checks a read-only entry can name with {@code checker}: commands with a language
 * or grammar of their own.
 */
final class Checker {

    private Checker() {}

    /**
     * Checks with a grammar of their own (find, xargs, git, jq); null for entries that use the
     * generic option parsing.
     *
     * @return why the entry does not take the arguments; empty when it does
     */
    static List<String> custom(Analyzer a, CommandJudge.Invocation inv, ReadOnlyCommand entry, String sub,
            List<Field> before, List<Field> args) {
        return switch (entry.checker()) {
            case "find" -> FindCheck.check(a, inv, entry, args);
            case "xargs" -> xargs(a, inv, entry, args);
            case "git" -> GitCheck.check(a, inv, entry, sub, before, args);
            case "jq" -> JqCheck.check(a, inv, args);
            case "xxd" -> XxdCheck.check(a, inv, args);
            case "ip" -> IpCheck.check(args);
            case "tar" -> ArchiveCheck.tar(a, inv, entry, args);
            case "unzip" -> ArchiveCheck.unzip(a, inv, CommandJudge.basename(inv.argv.getFirst().plain()), args);
            default -> null;
        };
    }

    /** Checks that run after generic option parsing accepted the arguments. */
    static void after(Analyzer a, CommandJudge.Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {
        switch (entry.checker()) {
            case "sed" -> {
                // GNU sed joins its -e scripts with newlines into one: a block may open in one and close in another
                List<Field> scripts = programs(parsed, List.of("-e", "--expression"));
                for (Field script : scripts.size() < 2 ? scripts : List.of(joined(scripts))) {
                    if (script.hasUnknown()) {
                        a.add(Checks.PROGRAM_LANGUAGE, Tier.ASK, "sed: the script is computed at run time", inv.span());
                        continue;
                    }
                    SedParser.Result r = SedParser.check(script.plain());
                    effects(a, inv, "sed", r.problem(), r.reads(), r.writes(), r.commands());
                }
            }
            case "awk" -> {
                for (Field program : programs(parsed, List.of("-e", "--source"))) {
                    if (program.hasUnknown()) {
                        a.add(Checks.PROGRAM_LANGUAGE, Tier.ASK, "awk: the program is computed at run time", inv.span());
                        continue;
                    }
                    AwkParser.Result r = AwkParser.check(program.plain());
                    effects(a, inv, "awk", r.problem(), r.reads(), r.writes(), r.commands());
                }
                for (OptionParser.Opt o : parsed.options()) {
                    if ((o.name().equals("-v") || o.name().equals("--assign")) && o.value() != null) {
                        String v = o.value().plain();
                        String name = v.contains("=") ? v.substring(0, v.indexOf('=')) : v;
                        if (name.equals("ENVIRON") || name.equals("PROCINFO") || name.equals("SYMTAB")) {
                            a.add(Checks.PROGRAM_LANGUAGE, Tier.ASK, "awk: assigns " + name, inv.span());
                        }
                    }
                }
            }
            case "shell-state" -> ShellState.check(a, inv);
            case "cd" -> changeDirectory(a, inv, parsed);
            default -> ProgramChecks.after(a, inv, entry.checker(), parsed);
        }
    }

    private static Field joined(List<Field> scripts) {
        Field out = scripts.getFirst();
        for (Field f : scripts.subList(1, scripts.size())) {
            out = out.concat(Field.literal("\n")).concat(f);
        }
        return out;
    }

    /** The scripts given by option ({@code -e}) or, without one, the first operand. */
    private static List<Field> programs(OptionParser.Parsed parsed, List<String> options) {
        List<Field> out = new ArrayList<>();
        for (OptionParser.Opt o : parsed.options()) {
            if (options.contains(o.name()) && o.value() != null) {
                out.add(o.value());
            }
        }
        if (out.isEmpty() && !parsed.operands().isEmpty()) {
            out.add(parsed.operands().getFirst());
        }
        return out;
    }

    /** {@code xargs [options] CMD [ARGS]}: judged as CMD with arguments that are not known. */
    private static List<String> xargs(Analyzer a, CommandJudge.Invocation inv, ReadOnlyCommand entry, List<Field> args) {
        OptionParser.Parsed parsed = a.policy.readOnlyParsers.get(entry).parse(args, true);
        if (!parsed.problems().isEmpty()) {
            return parsed.problems();
        }
        String replace = null;
        for (OptionParser.Opt o : parsed.options()) {
            ReadOnly.optionValue(a, inv, o);
            if (o.name().equals("-I") || o.name().equals("--replace") || o.name().equals("-i")) {
                replace = o.value() == null ? "{}" : o.value().plain();
            }
        }
        List<Field> inner = new ArrayList<>();
        for (Field f : parsed.operands()) {
            inner.add(replace != null && f.plain().contains(replace)
                    ? new Field(f.text().replace(replace, String.valueOf(Field.HOLE)), f.producers(), f.processSub(), true)
                    : f);
        }
        if (inner.isEmpty()) {
            inner.add(Field.literal("echo"));
        }
        if (replace == null) {
            inner.add(Field.hole());
        }
        a.commands.judgeArgv(inv, inner);
        return List.of();
    }

    /** Reports what a sed script or awk program does: why it is not read-only, the files it reads and writes. */
    private static void effects(Analyzer a, CommandJudge.Invocation inv, String language, String problem, List<String> reads,
            List<String> writes, List<String> commands) {
        for (String command : commands) {
            // the command runs with sh -c: a catastrophe there is refused, not only asked about
            NestedCode.code(a, inv, Field.literal(command), io.shellgate.judge.Dialect.SH,
                    NestedCode.child(inv, io.shellgate.judge.Dialect.SH, null), language + "'s command");
        }
        if (problem != null) {
            a.add(Checks.PROGRAM_LANGUAGE, Tier.ASK, language + ": " + problem, inv.span());
            return;
        }
        for (String file : reads) {
            Sensitive.checkRead(a, Field.literal(file), inv.scope, inv.span(), "reads");
        }
        for (String file : writes) {
            Redirects.write(a, Field.literal(file), inv.scope, inv.span());
        }
    }

    /** {@code cd DIR}: later commands run in DIR (or still here, if cd fails). */
    private static void changeDirectory(Analyzer a, CommandJudge.Invocation inv, OptionParser.Parsed parsed) {
        String program = CommandJudge.basename(inv.argv.getFirst().plain());
        if (!program.equals("cd") && !program.equals("pushd") && !program.equals("popd")) {
            return;
        }
        Scope scope = inv.scope;
        Field target = parsed.operands().isEmpty() ? scope.vars.get("HOME") : parsed.operands().getFirst();
        Field cdpath = scope.lookup("CDPATH");
        boolean searched = cdpath != null && !cdpath.text().isEmpty() && target != null && !target.plain().startsWith("/")
                && !target.plain().startsWith(".");
        // popd, cd -, a computed target, or a relative one that CDPATH may find elsewhere: unknown
        if (program.equals("popd") || target == null || !target.isLiteral() || target.plain().equals("-") || searched) {
            scope.cwds = List.of();
            scope.vars.put("PWD", Field.hole());
            return;
        }
        List<Path> next = new ArrayList<>();
        boolean mayFail = false;
        if (scope.cwds.isEmpty() && !target.plain().startsWith("/")) {
            return;
        }
        for (Path cwd : scope.cwds.isEmpty() ? java.util.Collections.<Path>singletonList(null) : scope.cwds) {
            Path dir = Path.of(ShellPaths.canonical(target.plain(), cwd));
            next.add(dir);
            mayFail |= !a.host.isDirectory(dir);
        }
        if (mayFail) {
            next.addAll(scope.cwds);
        }
        next.removeIf(java.util.Objects::isNull);
        scope.cwds = List.copyOf(new java.util.LinkedHashSet<>(next));
        scope.vars.put("PWD", scope.cwds.size() == 1 ? Field.literal(scope.cwds.getFirst().toString()) : Field.hole());
    }
}
