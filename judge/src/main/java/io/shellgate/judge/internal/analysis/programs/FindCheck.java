package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.policy.NameSet;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * find: starting points, then an expression. Predicates must be on the permitted list;
 * {@code -exec}, {@code -execdir}, {@code -ok} and {@code -okdir} are judged as the command they
 * run, with {@code {}} standing for the starting point (which find also reports).
 */
public final class FindCheck implements ProgramCheck {

    private static final Set<String> EXEC = Set.of("-exec", "-execdir", "-ok", "-okdir");
    private static final Set<String> OPERATORS = Set.of("(", ")", "!", ",");

    /** wc's options that count: it prints numbers and names, never what it reads. */
    private static final Set<String> WC_COUNTS = Set.of("-c", "-l", "-w", "-m", "-L", "-cl", "-lc", "-lw", "-wl", "-lwc",
            "--bytes", "--lines", "--words", "--chars", "--max-line-length");

    @Override
    public List<String> custom(CheckContext c, Invocation inv, ReadOnlyCommand entry, String sub, List<Field> before,
            List<Field> args) {
        return check(c, inv, entry, args);
    }

    /**
     * Whether an {@code -exec} command shows only what a file is, never what it holds: {@code ls} and
     * {@code stat} (metadata), {@code wc} with counting options (numbers). Its files need not be
     * checked for secrets inside.
     */
    private static boolean metadataOnly(List<Field> command) {
        if (command.isEmpty() || !command.stream().allMatch(Field::isLiteral)) {
            return false;
        }
        String program = command.getFirst().plain();
        List<Field> args = command.subList(1, command.size());
        return switch (program) {
            case "ls", "stat" -> true;
            case "wc" -> args.stream().allMatch(f -> f.plain().equals("{}") || WC_COUNTS.contains(f.plain()));
            default -> false;
        };
    }

    static List<String> check(CheckContext a, Invocation inv, ReadOnlyCommand entry, List<Field> args) {
        Map<String, OptionSpec> specs = new HashMap<>();
        for (OptionSpec s : entry.options()) {
            specs.put(s.name(), s);
        }
        List<String> problems = new ArrayList<>();
        int i = 0;
        // -H, -L, -P, -D debugopts, -Olevel come before the starting points
        while (i < args.size()) {
            String t = args.get(i).plain();
            if (t.equals("-H") || t.equals("-L") || t.equals("-P") || t.startsWith("-O")) {
                i++;
            } else if (t.equals("-D")) {
                i += 2;
            } else {
                break;
            }
        }
        List<Field> roots = new ArrayList<>();
        while (i < args.size()) {
            Field f = args.get(i);
            String t = f.plain();
            if (f.isLiteral() && (t.startsWith("-") && t.length() > 1 || OPERATORS.contains(t))) {
                break;
            }
            roots.add(f);
            i++;
        }
        if (roots.isEmpty()) {
            roots.add(Field.literal("."));
        }
        List<List<Field>> execs = new ArrayList<>();
        List<NameSet> names = new ArrayList<>();
        List<NameSet> inames = new ArrayList<>();
        for (; i < args.size(); i++) {
            Field f = args.get(i);
            String t = f.plain();
            if (!f.isLiteral()) {
                problems.add("the expression word " + f.display() + " is computed at run time");
                continue;
            }
            if (OPERATORS.contains(t)) {
                continue;
            }
            if (EXEC.contains(t)) {
                List<Field> command = new ArrayList<>();
                for (i++; i < args.size(); i++) {
                    String w = args.get(i).plain();
                    if (w.equals(";") || w.equals("+") && !command.isEmpty()) {
                        break;
                    }
                    command.add(args.get(i));
                }
                execs.add(command);
                continue;
            }
            OptionSpec spec = specs.get(t);
            if (spec == null) {
                problems.add("the option " + t + " is not on the permitted list");
                continue;
            }
            if (spec.arity() == OptionSpec.Arity.REQUIRED) {
                i++;
                if (i < args.size()) {
                    a.optionValue(inv, new OptionParser.Opt(t, args.get(i), f, spec));
                    if (t.equals("-name") && args.get(i).isLiteral()) {
                        names.add(new NameSet(List.of(args.get(i).plain())));
                    } else if (t.equals("-iname") && args.get(i).isLiteral()) {
                        inames.add(new NameSet(List.of(args.get(i).plain().toLowerCase(java.util.Locale.ROOT))));
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            return problems;
        }
        // -exec only gets files that pass the -name tests (when every test is a -name; "or" is not modelled)
        boolean onlyNames = (!names.isEmpty() || !inames.isEmpty()) && args.stream().noneMatch(x -> x.plain().equals("-o")
                || x.plain().equals("-or") || x.plain().equals("!") || x.plain().equals("-not") || x.plain().equals(","));
        java.util.function.Predicate<String> filter = name -> !onlyNames
                || names.stream().allMatch(n -> n.contains(name))
                        && inames.stream().allMatch(n -> n.contains(name.toLowerCase(java.util.Locale.ROOT)));
        boolean contents = execs.stream().anyMatch(c -> !metadataOnly(c));
        for (Field root : roots) {
            if (!a.checkRead(root, inv.scope, inv.span(), "lists") && contents) {
                a.checkRecursive(root, inv.scope, inv.span(), filter, false, true);
            }
        }
        for (List<Field> command : execs) {
            if (command.isEmpty()) {
                problems.add("-exec has no command");
                continue;
            }
            for (Field root : roots) {
                List<Field> argv = new ArrayList<>();
                for (Field w : command) {
                    argv.add(w.plain().contains("{}")
                            ? new Field(w.text().replace("{}", root.text()), root.producers(), root.processSub(), true)
                            : w);
                }
                a.judgeArgv(inv, argv);
            }
        }
        return problems;
    }
}
