package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.policy.CommandRule;
import io.shellgate.rules.Rule;
import java.nio.file.Path;
import java.util.List;

/** Runs the policy's command rules on an invocation. */
public final class Rules {

    private Rules() {}

    static void check(Analyzer a, Invocation inv, String program) {
        List<Field> args = inv.argv.subList(1, inv.argv.size());
        for (CommandRule r : a.policy.rulesFor(program)) {
            if (applies(r.rule, inv) && r.matches(program, args, context(a, inv.scope), false)) {
                a.add(r.rule.id(), r.rule.tier(), message(r.rule), inv.span());
            }
        }
    }

    /** For a command whose name is computed at run time: rules its arguments alone already prove. */
    static void checkNameless(Analyzer a, Invocation inv, List<Field> args) {
        for (CommandRule r : a.policy.commandRules) {
            if (r.hasArgumentConditions() && applies(r.rule, inv) && r.matches("", args, context(a, inv.scope), true)) {
                a.add(r.rule.id(), r.rule.tier(), message(r.rule) + " (whatever the computed command name turns out to be)",
                        inv.span());
            }
        }
    }

    /** For words whose command position is uncertain: every word that names a program starts a candidate. */
    static void checkSuffixes(Analyzer a, Invocation inv, List<Field> words) {
        for (int i = 0; i < words.size(); i++) {
            Field f = words.get(i);
            if (!f.isLiteral()) {
                continue;
            }
            String program = CommandJudge.basename(f.plain());
            List<Field> rest = words.subList(i + 1, words.size());
            for (CommandRule r : a.policy.rulesFor(program)) {
                if (applies(r.rule, inv) && r.matches(program, rest, context(a, inv.scope), false)) {
                    a.add(r.rule.id(), r.rule.tier(), message(r.rule), inv.span());
                }
            }
        }
    }

    private static boolean applies(Rule rule, Invocation inv) {
        return rule.dialects().isEmpty() || rule.dialects().contains(inv.scope.dialect.id());
    }

    public static String message(Rule rule) {
        return rule.instead().isEmpty() ? rule.reason() : rule.reason() + "; instead: " + rule.instead();
    }

    static CommandRule.MatchContext context(Analyzer a, Scope scope) {
        return new CommandRule.MatchContext() {
            @Override
            public List<Path> cwds() {
                return Redirects.cwds(scope);
            }

            @Override
            public String home() {
                return Redirects.home(scope);
            }

            @Override
            public List<Field> afterSubcommand(String program, List<Field> args, String sub) {
                return Rules.afterSubcommand(a, program, args, sub);
            }
        };
    }

    /** The arguments after {@code sub} when it is the subcommand of {@code program}; else null. */
    static List<Field> afterSubcommand(Analyzer a, String program, List<Field> args, String sub) {
        OptionParser global = a.policy.globalOptions.get(program);
        List<Field> operands = global == null ? args : global.parse(args, true).operands();
        if (operands.isEmpty() || !operands.getFirst().isLiteral() || !operands.getFirst().plain().equals(sub)) {
            return null;
        }
        return operands.subList(1, operands.size());
    }
}
