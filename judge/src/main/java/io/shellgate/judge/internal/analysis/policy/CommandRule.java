package io.shellgate.judge.internal.analysis.policy;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.ShellPaths;
import io.shellgate.rules.Rule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A compiled {@code command = [...]} deny or ask rule. */
public final class CommandRule {

    public final Rule rule;
    private final Rule.CommandMatcher matcher;
    private final List<String[]> commands = new ArrayList<>();
    private final List<NameSet> commandNames = new ArrayList<>();
    private final NameSet programs;
    private final java.util.Map<String, PathSet> sets;
    private final List<ArgPattern> argPatterns = new ArrayList<>();
    private final List<PathSet> operandPatterns = new ArrayList<>();

    /** One args-any entry: a prefix and a path set ({@code of=@devices}), or a glob on the whole argument. */
    private record ArgPattern(String prefix, String set, NameSet glob) {}

    CommandRule(Rule rule, Rule.CommandMatcher matcher, java.util.Map<String, PathSet> sets) {
        this.rule = rule;
        this.matcher = matcher;
        this.sets = sets;
        List<String> firsts = new ArrayList<>();
        for (String c : matcher.commands()) {
            String[] words = c.split(" ");
            commands.add(words);
            commandNames.add(new NameSet(List.of(words[0])));
            firsts.add(words[0]);
        }
        this.programs = new NameSet(firsts);
        for (String pattern : matcher.argsAny()) {
            int at = pattern.indexOf('@');
            argPatterns.add(at >= 0
                    ? new ArgPattern(pattern.substring(0, at), pattern.substring(at + 1), null)
                    : new ArgPattern(null, null, new NameSet(List.of(pattern))));
        }
        for (String p : matcher.operandsAny()) {
            operandPatterns.add(p.startsWith("@") ? null : new PathSet(p, List.of(p)));
        }
    }

    boolean appliesTo(String program) {
        return programs.contains(program);
    }

    /** Whether the rule has conditions on arguments, so that it can prove a match without the name. */
    public boolean hasArgumentConditions() {
        return !matcher.operandsAny().isEmpty() || !matcher.argsAny().isEmpty();
    }

    /**
     * Whether the command matches.
     *
     * @param program the program's name (without directories)
     * @param args the arguments after the program name
     * @param skipName match the arguments only, for a command whose name is computed at run time
     */
    public boolean matches(String program, List<Field> args, MatchContext ctx, boolean skipName) {
        for (int c = 0; c < commands.size(); c++) {
            String[] command = commands.get(c);
            List<Field> rest = args;
            if (!skipName) {
                if (!commandNames.get(c).contains(program)) {
                    continue;
                }
                if (command.length > 1) {
                    rest = ctx.afterSubcommand(program, args, command[1]);
                    if (rest == null) {
                        continue;
                    }
                }
            } else if (command.length > 1) {
                continue;
            }
            if (argumentsMatch(rest, ctx)) {
                return true;
            }
        }
        return false;
    }

    private boolean argumentsMatch(List<Field> args, MatchContext ctx) {
        List<String> options = new ArrayList<>();
        List<Field> operands = new ArrayList<>();
        boolean ended = false;
        for (Field f : args) {
            String t = f.plain();
            if (!ended && t.equals("--")) {
                ended = true;
            } else if (!ended && t.startsWith("--") && f.isLiteral()) {
                int eq = t.indexOf('=');
                options.add(eq > 0 ? t.substring(0, eq) : t);
            } else if (!ended && t.length() > 1 && t.startsWith("-") && f.isLiteral()) {
                options.add(t);
                for (int i = 1; i < t.length(); i++) {
                    options.add("-" + t.charAt(i));
                }
            } else {
                operands.add(f);
            }
        }
        for (List<String> group : matcher.options()) {
            if (group.stream().noneMatch(options::contains)) {
                return false;
            }
        }
        if (!matcher.optionsAny().isEmpty() && matcher.optionsAny().stream().noneMatch(options::contains)) {
            return false;
        }
        if (matcher.optionsNone().stream().anyMatch(options::contains)) {
            return false;
        }
        if (!matcher.operandsAny().isEmpty() && operands.stream().noneMatch(o -> anyPattern(matcher.operandsAny(), o, ctx, ""))) {
            return false;
        }
        if (!matcher.argsAny().isEmpty() && args.stream().noneMatch(a -> argPattern(a, ctx))) {
            return false;
        }
        return true;
    }

    private boolean argPattern(Field arg, MatchContext ctx) {
        if (arg.hasUnknown()) {
            return false;
        }
        String t = arg.plain();
        for (ArgPattern p : argPatterns) {
            if (p.glob != null) {
                if (p.glob.contains(t)) {
                    return true;
                }
            } else if (t.startsWith(p.prefix) && ctx.inSet(sets.get(p.set), Field.literal(t.substring(p.prefix.length())))) {
                return true;
            }
        }
        return false;
    }

    private boolean anyPattern(List<String> patterns, Field operand, MatchContext ctx, String prefix) {
        if (operand.hasUnknown()) {
            return false;
        }
        for (int i = 0; i < patterns.size(); i++) {
            String p = patterns.get(i);
            if (p.startsWith("@")) {
                if (ctx.inSet(sets.get(p.substring(1)), operand)) {
                    return true;
                }
            } else if (ctx.inSet(operandPatterns.get(i), operand)) {
                return true;
            }
        }
        return false;
    }

    /** What matching needs from the judge: working directories, home, subcommand lookup. */
    public interface MatchContext {

        List<Path> cwds();

        String home();

        /** The arguments after {@code sub}, if {@code sub} is the program's subcommand; null otherwise. */
        List<Field> afterSubcommand(String program, List<Field> args, String sub);

        default boolean inSet(PathSet set, Field operand) {
            if (set == null || operand.hasUnknown()) {
                return false;
            }
            String text = operand.plain();
            for (Path cwd : cwds()) {
                if (set.contains(ShellPaths.canonical(text, cwd), home())) {
                    return true;
                }
            }
            return false;
        }
    }
}
