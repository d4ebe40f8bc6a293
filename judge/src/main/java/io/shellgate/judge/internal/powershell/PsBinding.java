package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.internal.windows.WindowsHost;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cmdlet's arguments bound to its parameters as PowerShell binds them: names, unique prefixes
 * and aliases, values after the name or glued with a colon, and positions.
 */
final class PsBinding {

    /** Options by canonical name ({@code -Recurse}), for the policy's rules. */
    final List<String> options = new ArrayList<>();
    /** The argument values, for the policy's rules (constants the script assigned count). */
    final List<String> operands = new ArrayList<>();
    /** The expressions bound to each parameter, by canonical name ("" for an argument with no parameter). */
    final Map<String, List<PsAst.Expr>> values = new LinkedHashMap<>();
    /** What does not bind (an unknown or ambiguous parameter, an argument with no position left): PowerShell does not run the command. */
    final List<String> problems = new ArrayList<>();
    /** Whether {@code --%} handed the rest of the line over unparsed. */
    boolean unparsed;
    /** Parameters given that are not read-only. */
    final List<String> notReadOnly = new ArrayList<>();

    private PsBinding() {}

    /** Whether a path was given by name or position. */
    boolean hasPath() {
        return values.containsKey("Path") || values.containsKey("LiteralPath");
    }

    List<PsAst.Expr> get(String param) {
        return values.getOrDefault(param, List.of());
    }

    static PsBinding bind(PsCmdlets.Cmdlet spec, PsAst.CommandCall c, PowerShellJudge ps) {
        PsBinding b = new PsBinding();
        int position = 0;
        List<PsAst.Arg> args = c.args();
        for (int i = 0; i < args.size(); i++) {
            switch (args.get(i)) {
                case PsAst.Param p -> {
                    PsCmdlets.Param def = spec == null ? null : spec.resolve(p.name());
                    if (def == null) {
                        b.options.add("-" + p.name());
                        if (spec != null) {
                            b.problems.add("-" + p.name() + " is not a parameter shellgate knows (or it is ambiguous)");
                        }
                        if (p.value() != null) {
                            b.add(p.name(), p.value(), ps.host, ps);
                        }
                        continue;
                    }
                    b.options.add("-" + def.name());
                    if (!def.readOnly()) {
                        b.notReadOnly.add("-" + def.name());
                    }
                    PsAst.Expr value = p.value();
                    if (value == null && !def.isSwitch() && i + 1 < args.size() && args.get(i + 1) instanceof PsAst.Value v) {
                        value = v.value();
                        i++;
                    }
                    if (value != null) {
                        b.add(def.name(), value, ps.host, ps);
                    }
                }
                case PsAst.Value v -> {
                    PsCmdlets.Param def = null;
                    while (spec != null && (def = spec.positional(position)) != null && b.values.containsKey(def.name())) {
                        position++;
                    }
                    if (spec != null && def == null) {
                        b.problems.add("the argument " + v.span().of(ps.code) + " has no parameter to go to");
                    }
                    position++;
                    b.add(def == null ? "" : def.name(), v.value(), ps.host, ps);
                }
                case PsAst.StopParsing s -> b.unparsed = true;
            }
        }
        return b;
    }

    private void add(String param, PsAst.Expr value, WindowsHost host, PowerShellJudge ps) {
        values.computeIfAbsent(param, k -> new ArrayList<>()).add(value);
        if (!(value instanceof PsAst.ScriptBlock)) {
            operands.addAll(PsValues.values(value, host, ps.assigned));
        }
    }
}
