package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.Tier;
import io.shellgate.rules.Wrapper;
import java.util.List;

/** Strips a wrapper ({@code timeout 60}, {@code env -i A=b}, {@code sudo -u x}) from an invocation. */
final class Wrappers {

    private Wrappers() {}

    /** Strips {@code w} from the front of {@code inv}; false when it cannot (unknown option, nothing after it). */
    static boolean strip(Analyzer a, Invocation inv, Wrapper w, String base) {
        List<Field> args = inv.argv.subList(1, inv.argv.size());
        OptionParser.Parsed parsed = a.policy.wrapperParsers.get(w).parse(args, true);
        if (!parsed.problems().isEmpty()) {
            if (base.equals("command")) {
                return false;
            }
            a.add(Checks.WRAPPER_OPTION, Tier.ASK, base + ": " + parsed.problems().getFirst()
                    + ", so shellgate cannot tell which command it runs", inv.span());
            Rules.checkSuffixes(a, inv, args);
            return false;
        }
        if (base.equals("nice") && parsed.options().stream().anyMatch(o -> o.value() != null && o.value().plain().startsWith("-"))) {
            // a negative adjustment raises the priority over everything else on the machine
            a.add(Checks.WRAPPER_OPTION, Tier.ASK, "nice with a negative adjustment raises the priority of what it runs",
                    inv.span());
            return false;
        }
        List<Field> rest = parsed.operands();
        int i = 0;
        if (w.assignments()) {
            while (i < rest.size() && isAssignment(rest.get(i))) {
                Field f = rest.get(i);
                String text = f.text();
                String name = text.substring(0, text.indexOf('='));
                Assignments.environment(a, name, inv.span());
                inv.env.put(name, new Field(text.substring(name.length() + 1), f.producers(), f.processSub(), f.expanded()));
                i++;
            }
        }
        if (rest.size() <= i + w.operands()) {
            return false;
        }
        for (OptionParser.Opt o : parsed.options()) {
            switch (base + " " + o.name()) {
                case "env -i", "env --ignore-environment" -> inv.env.clear();
                case "env -u", "env --unset" -> {
                    if (o.value() != null) {
                        inv.env.remove(o.value().plain());
                    }
                }
                case "command -p" -> inv.env.put("PATH", Field.literal("/usr/bin:/bin"));
                default -> {
                    // other options do not change what runs
                }
            }
        }
        List<Field> inner = rest.subList(i + w.operands(), rest.size());
        a.add(w.id(), w.tier(), w.tier() == Tier.ALLOW ? w.reason() : base + " " + w.reason(), inv.span());
        inv.wrappers.add(base);
        if (base.equals("builtin")) {
            inv.builtinOnly = true;
        } else if (base.equals("command")) {
            inv.skipFunctions = true;
        }
        if (w.options().stream().anyMatch(o -> o.arity() == OptionSpec.Arity.ANY)) {
            // Its options are not modelled, so the command may start at any later word.
            Rules.checkSuffixes(a, inv, inner);
        }
        inv.argv = List.copyOf(inner);
        inv.dynamicName = inner.getFirst().expanded();
        return true;
    }

    private static boolean isAssignment(Field f) {
        String t = f.text();
        int eq = t.indexOf('=');
        if (eq <= 0 || !f.isLiteral() && !t.substring(0, eq).chars().allMatch(c -> c < 0xE000)) {
            return false;
        }
        for (int j = 0; j < eq; j++) {
            char c = t.charAt(j);
            if (!(Character.isLetterOrDigit(c) || c == '_') || j == 0 && Character.isDigit(c)) {
                return false;
            }
        }
        return true;
    }
}
