package io.shellgate.judge.internal.powershell;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cmdlet's arguments bound to its parameters as PowerShell binds them: names, unique prefixes of
 * names and aliases, values after the name or glued with a colon, {@code --}, parameter sets,
 * positions and the parameter that takes the remaining arguments.
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
    /** The parameter sets the named arguments leave (null: any). */
    Set<String> sets;
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

    /**
     * Binds as PowerShell's parameter binder does: named arguments first ({@code --} ends them),
     * then the positional ones in order to the unbound positional parameters of the parameter sets
     * the named ones leave, then what is left to a parameter that takes the remaining arguments.
     */
    static PsBinding bind(PsCmdlets.Cmdlet spec, PsAst.CommandCall c, PowerShellJudge ps) {
        PsBinding b = bind(spec, c, ps.code);
        for (Map.Entry<String, List<PsAst.Expr>> e : b.values.entrySet()) {
            for (PsAst.Expr value : e.getValue()) {
                if (!(value instanceof PsAst.ScriptBlock)) {
                    b.operands.addAll(PsValues.values(value, ps.host, ps.assigned));
                }
            }
        }
        return b;
    }

    /** The binding alone, without the values the arguments have ({@code code} is the text the spans point into). */
    static PsBinding bind(PsCmdlets.Cmdlet spec, PsAst.CommandCall c, String code) {
        PsBinding b = new PsBinding();
        List<PsAst.Value> positional = new ArrayList<>();
        Set<PsCmdlets.Param> named = new LinkedHashSet<>();
        boolean ended = false;
        List<PsAst.Arg> args = c.args();
        for (int i = 0; i < args.size(); i++) {
            switch (args.get(i)) {
                case PsAst.Param p -> {
                    PsCmdlets.Resolved r = spec == null ? null : spec.resolve(p.name());
                    if (r == null || r.param() == null) {
                        b.options.add("-" + p.name());
                        if (spec != null) {
                            b.problems.add(r.ambiguous().isEmpty() ? "-" + p.name() + " is not a parameter of " + spec.name()
                                    : "-" + p.name() + " is ambiguous (" + String.join(", ", r.ambiguous()) + ")");
                        }
                        if (p.value() != null) {
                            b.add(p.name(), p.value());
                        }
                        continue;
                    }
                    PsCmdlets.Param def = r.param();
                    b.options.add("-" + def.name());
                    if (!def.readOnly()) {
                        b.notReadOnly.add("-" + def.name());
                    }
                    if (!named.add(def)) {
                        b.problems.add("-" + def.name() + " is given more than once");
                    }
                    PsAst.Expr value = p.value();
                    if (value == null && !def.isSwitch()) {
                        if (i + 1 < args.size() && args.get(i + 1) instanceof PsAst.Value v && !endMarker(v)) {
                            value = v.value();
                            i++;
                        } else {
                            b.problems.add("-" + def.name() + " has no argument");
                        }
                    }
                    if (value != null) {
                        b.add(def.name(), value);
                    }
                }
                case PsAst.Value v -> {
                    if (!ended && endMarker(v) && spec != null) {
                        ended = true;
                    } else {
                        positional.add(v);
                    }
                }
                case PsAst.StopParsing s -> b.unparsed = true;
            }
        }
        if (spec == null) {
            positional.forEach(v -> b.add("", v.value()));
            return b;
        }
        b.sets = sets(spec, named);
        if (b.sets != null && b.sets.isEmpty()) {
            b.problems.add("the parameters given are of different parameter sets");
            b.sets = null;
        }
        b.positional(spec, named, positional, code);
        return b;
    }

    /**
     * What pipeline objects with {@code properties} (lower-case names to their values) bind by
     * property name, as PowerShell binds them: each parameter the metadata marks
     * ValueFromPipelineByPropertyName, and not given on the command line, takes the property named
     * as the parameter or as one of its aliases (exactly, in any case: no prefixes). Objects are
     * merged here, so every name that matches binds (PowerShell takes the parameter's own name
     * before an alias on each object). A property no such parameter names binds nowhere.
     */
    static Map<String, List<String>> byPropertyName(PsCmdlets.Cmdlet spec, Map<String, List<String>> properties, Set<String> given) {
        Map<String, List<String>> bound = new LinkedHashMap<>();
        for (PsCmdlets.Param p : spec.params()) {
            if (given.contains(p.name()) || p.slots().stream().noneMatch(PsCmdlets.Slot::byProperty)) {
                continue;
            }
            List<String> names = new ArrayList<>();
            names.add(p.name().toLowerCase(java.util.Locale.ROOT));
            names.addAll(p.aliases());
            for (String n : names) {
                List<String> values = properties.get(n);
                if (values != null) {
                    bound.computeIfAbsent(p.name(), k -> new ArrayList<>()).addAll(values);
                }
            }
        }
        return bound;
    }

    /** An unquoted {@code --} (typographic dashes count): for a cmdlet, the end of the named parameters. */
    private static boolean endMarker(PsAst.Value v) {
        return v.value() instanceof PsAst.Literal l && !l.quoted() && l.value().equals("--");
    }

    /** The parameter sets every named parameter is in; null when the cmdlet has no sets. */
    private static Set<String> sets(PsCmdlets.Cmdlet spec, Set<PsCmdlets.Param> named) {
        Set<String> sets = spec.sets();
        if (sets.isEmpty()) {
            return null;
        }
        sets.removeIf(set -> named.stream().anyMatch(p -> !p.inAny(Set.of(set))));
        return sets;
    }

    private void positional(PsCmdlets.Cmdlet spec, Set<PsCmdlets.Param> named, List<PsAst.Value> args, String code) {
        Set<PsCmdlets.Param> bound = new LinkedHashSet<>(named);
        int next = 0;
        for (; next < args.size(); next++) {
            PsAst.Expr value = args.get(next).value();
            List<PsCmdlets.Param> at = nextPositional(spec, bound);
            if (at.isEmpty()) {
                break;
            }
            List<PsCmdlets.Param> fit = at.stream().filter(p -> p.accepts(value)).toList();
            // several parameters at one position are of different sets: PowerShell picks by the argument's type (one
            // that takes it without a conversion first), then the default set; where neither tells, the argument
            // counts as given to each
            List<PsCmdlets.Param> to = fit.isEmpty() ? at : fit;
            List<PsCmdlets.Param> exact = to.stream().filter(p -> p.exact(value)).toList();
            if (to.size() > 1 && !exact.isEmpty()) {
                to = exact;
            }
            List<PsCmdlets.Param> byDefault = to.stream().filter(p -> p.inAny(Set.of(spec.defaultSet()))).toList();
            if (to.size() > 1 && byDefault.size() == 1) {
                to = byDefault;
            }
            for (PsCmdlets.Param p : to) {
                add(p.name(), value);
                bound.add(p);
            }
            bound.addAll(at);
            if (to.size() == 1 && sets != null) {
                PsCmdlets.Param chosen = to.getFirst();
                Set<String> narrowed = new LinkedHashSet<>(sets);
                narrowed.removeIf(set -> !chosen.inAny(Set.of(set)));
                sets = narrowed.isEmpty() ? sets : narrowed;
            }
        }
        if (next == args.size()) {
            return;
        }
        PsCmdlets.Param rest = spec.params().stream().filter(p -> p.remaining(sets) && !named.contains(p)).findFirst().orElse(null);
        for (; next < args.size(); next++) {
            PsAst.Value v = args.get(next);
            if (rest == null) {
                problems.add("the argument " + v.span().of(code) + " has no parameter to go to");
                add("", v.value());
            } else {
                add(rest.name(), v.value());
            }
        }
    }

    /** The unbound parameters at the lowest position left among the sets still possible. */
    private List<PsCmdlets.Param> nextPositional(PsCmdlets.Cmdlet spec, Set<PsCmdlets.Param> bound) {
        int lowest = Integer.MAX_VALUE;
        List<PsCmdlets.Param> at = new ArrayList<>();
        for (PsCmdlets.Param p : spec.params()) {
            int position = p.position(sets);
            if (position < 0 || bound.contains(p) || position > lowest) {
                continue;
            }
            if (position < lowest) {
                lowest = position;
                at.clear();
            }
            at.add(p);
        }
        return at;
    }

    private void add(String param, PsAst.Expr value) {
        values.computeIfAbsent(param, k -> new ArrayList<>()).add(value);
    }
}
