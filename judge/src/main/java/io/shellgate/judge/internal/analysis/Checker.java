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
            case "git" -> GitCheck.check(a, inv, sub, before, args);
            case "jq" -> jq(a, inv, args);
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
                for (Field script : programs(parsed, List.of("-e", "--expression"))) {
                    String problem = script.hasUnknown() ? "the sed script is computed at run time" : SedScript.problem(script.plain());
                    if (problem != null) {
                        a.add(Checks.PROGRAM_LANGUAGE, Tier.ASK, "sed: " + problem, inv.span());
                    }
                    String read = SedScript.readsFile(script.plain());
                    if (read != null) {
                        Sensitive.checkRead(a, Field.literal(read), inv.scope, inv.span(), "reads");
                    }
                }
            }
            case "awk" -> {
                for (Field program : programs(parsed, List.of("-e", "--source"))) {
                    List<String> reads = new ArrayList<>();
                    String problem = program.hasUnknown() ? "the awk program is computed at run time"
                            : AwkProgram.problem(program.plain(), reads);
                    if (problem != null) {
                        a.add(Checks.PROGRAM_LANGUAGE, Tier.ASK, "awk: " + problem, inv.span());
                    }
                    for (String file : reads) {
                        Sensitive.checkRead(a, Field.literal(file), inv.scope, inv.span(), "reads");
                    }
                }
                for (OptionParser.Opt o : parsed.options()) {
                    if ((o.name().equals("-v") || o.name().equals("--assign")) && o.value() != null) {
                        String v = o.value().plain();
                        String name = v.contains("=") ? v.substring(0, v.indexOf('=')) : v;
                        if (name.equals("ENVIRON") || name.equals("PROCINFO")) {
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

    private static final Set<String> JQ_TWO_VALUES = Set.of("--arg", "--argjson");
    private static final Set<String> JQ_FLAGS = Set.of("-r", "-c", "-e", "-s", "-n", "-j", "-a", "-S", "-C", "-M", "-R",
            "--tab", "--raw-output", "--compact-output", "--exit-status", "--slurp", "--null-input", "--join-output",
            "--sort-keys", "--raw-input", "--seq", "--stream", "--ascii-output", "--color-output",
            "--monochrome-output", "--help", "--version");

    private static final com.google.re2j.Pattern JQ_READS =
            com.google.re2j.Pattern.compile("\\benv\\b|\\$ENV|\\$__prog_args|\\binput_filename\\b|\\bimport\\b|\\binclude\\b");
    private static final com.google.re2j.Pattern JQ_BUNDLE = com.google.re2j.Pattern.compile("-[rcesnjaSCMR]+");

    /** jq: {@code --arg} takes two values, the first operand is the filter, the rest are files. */
    private static List<String> jq(Analyzer a, CommandJudge.Invocation inv, List<Field> args) {
        Field filter = null;
        List<Field> files = new ArrayList<>();
        boolean argsMode = false;
        for (int i = 0; i < args.size(); i++) {
            Field f = args.get(i);
            String t = f.plain();
            if (!argsMode && t.startsWith("-") && t.length() > 1) {
                if (JQ_TWO_VALUES.contains(t)) {
                    i += 2;
                } else if (t.equals("--indent")) {
                    i++;
                } else if (t.equals("--args") || t.equals("--jsonargs")) {
                    argsMode = true;
                } else if (!JQ_FLAGS.contains(t) && !JQ_BUNDLE.matcher(t).matches()) {
                    return List.of("the option " + t + " is not on the permitted list");
                }
            } else if (filter == null) {
                filter = f;
            } else if (!argsMode) {
                files.add(f);
            }
        }
        if (filter != null) {
            if (filter.hasUnknown()) {
                a.add(Checks.PROGRAM_LANGUAGE, Tier.ASK, "jq: the filter is computed at run time", inv.span());
            } else if (JQ_READS.matcher(filter.plain()).find()) {
                a.add(Checks.PRINTS_ENVIRONMENT, Tier.ASK, "jq: the filter reads the environment or other files", inv.span());
            }
        }
        for (Field f : files) {
            Sensitive.checkRead(a, f, inv.scope, inv.span(), "reads");
        }
        return List.of();
    }

    /** {@code cd DIR}: later commands run in DIR (or still here, if cd fails). */
    private static void changeDirectory(Analyzer a, CommandJudge.Invocation inv, OptionParser.Parsed parsed) {
        String program = CommandJudge.basename(inv.argv.getFirst().plain());
        if (!program.equals("cd") && !program.equals("pushd") && !program.equals("popd")) {
            return;
        }
        Scope scope = inv.scope;
        Field target = parsed.operands().isEmpty() ? scope.vars.get("HOME") : parsed.operands().getFirst();
        if (program.equals("popd") || target == null || !target.isLiteral() || target.plain().equals("-")) {
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
