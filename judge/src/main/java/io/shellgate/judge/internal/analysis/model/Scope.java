package io.shellgate.judge.internal.analysis.model;

import io.shellgate.judge.Dialect;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the shell knows at one point of a command line: variables, working directories, functions,
 * positional parameters. Subshells and pipeline stages work on a copy.
 */
public final class Scope {

    public final Dialect dialect;
    public final int depth;
    /** Variables with known (or partly known) values; a name mapped to null is known to be unset. */
    public final Map<String, Field> vars;
    /** Names exported to children. */
    public final Set<String> exported;
    /** The directories the shell may be in; empty means unknown. */
    public List<Path> cwds;
    public final Set<String> functions;
    /** Positional parameters; null when unknown. */
    public List<Field> positional;
    /** Whether a variable not in {@link #vars} is known to be unset (a fresh shell with a known environment). */
    public final boolean knowsAllVariables;
    /** Shell options and variable attributes that change what later assignments and words mean. */
    public final Options options;
    /**
     * Variables an assignment before {@code eval} puts in the environment while its text runs, not on the
     * safe list: a program the text starts asks ({@code PosixAssignments}).
     */
    public List<String> deferredEnv = List.of();

    /**
     * What {@code set}, {@code declare} and their kind have changed about how this shell reads
     * later lines. Shared by the scopes of one shell ({@code eval}), copied for a subshell.
     */
    public static final class Options {
        /** {@code set -a}: every assignment is exported. */
        public boolean allexport;
        /** {@code set -k}: assignment words anywhere on a command line go to its environment. */
        public boolean keyword;
        /**
         * POSIX mode (bash after {@code set -o posix} or any assignment to {@code POSIXLY_CORRECT}, zsh
         * emulating sh): an assignment before a special builtin stays in the shell. Never switched back off.
         */
        public boolean posix;
        /** Whether IFS was changed, so that word splitting is unknown. */
        public boolean ifsChanged;
        /** Variables with the integer attribute: what is assigned to them is evaluated as arithmetic. */
        public final Set<String> integers = new HashSet<>();
        /** Associative arrays: their subscripts are strings, not arithmetic. */
        public final Set<String> associative = new HashSet<>();
        /** Variables whose assigned values the judge does not follow (case conversion). */
        public final Set<String> untracked = new HashSet<>();

        Options copy() {
            Options o = new Options();
            o.allexport = allexport;
            o.keyword = keyword;
            o.posix = posix;
            o.ifsChanged = ifsChanged;
            o.integers.addAll(integers);
            o.associative.addAll(associative);
            o.untracked.addAll(untracked);
            return o;
        }
    }

    public Scope(Dialect dialect, int depth, Map<String, Field> vars, Set<String> exported, List<Path> cwds,
            Set<String> functions, List<Field> positional, boolean knowsAllVariables) {
        this(dialect, depth, vars, exported, cwds, functions, positional, knowsAllVariables, new Options());
    }

    private Scope(Dialect dialect, int depth, Map<String, Field> vars, Set<String> exported, List<Path> cwds,
            Set<String> functions, List<Field> positional, boolean knowsAllVariables, Options options) {
        this.options = options;
        this.dialect = dialect;
        this.depth = depth;
        this.vars = vars;
        this.exported = exported;
        this.cwds = cwds;
        this.functions = functions;
        this.positional = positional;
        this.knowsAllVariables = knowsAllVariables;
    }

    public static Scope initial(Dialect dialect, Map<String, String> env, Path cwd, List<String> positional, boolean fresh) {
        Map<String, Field> vars = new HashMap<>();
        env.forEach((k, v) -> vars.put(k, Field.literal(v)));
        vars.put("PWD", Field.literal(cwd.toString()));
        List<Field> pos = positional == null ? null : positional.stream().map(Field::literal).toList();
        Scope s = new Scope(dialect, 0, vars, new HashSet<>(env.keySet()), List.of(cwd), new HashSet<>(), pos, fresh);
        // bash started with POSIXLY_CORRECT in its environment, whatever its value, is in POSIX mode
        s.options.posix = dialect == Dialect.BASH && env.containsKey("POSIXLY_CORRECT");
        return s;
    }

    /** A copy for a subshell, a pipeline stage or a substitution: changes do not flow back. */
    public Scope copy() {
        Scope s = new Scope(dialect, depth, new HashMap<>(vars), new HashSet<>(exported), cwds, new HashSet<>(functions),
                positional, knowsAllVariables, options.copy());
        s.deferredEnv = deferredEnv;
        return s;
    }

    /** The same shell one level deeper ({@code eval}, {@code trap}): state is shared, depth counts. */
    public Scope deeper() {
        return deeper(dialect);
    }

    /** The same shell one level deeper, reading code as {@code other} does (zsh's {@code emulate sh -c}). */
    public Scope deeper(Dialect other) {
        Scope s = new Scope(other, depth + 1, vars, exported, cwds, functions, positional, knowsAllVariables, options);
        s.deferredEnv = deferredEnv;
        return s;
    }

    /**
     * After code ran one level deeper in this same shell ({@code eval}, {@code emulate -c}):
     * the directory it left the shell in and the positional parameters it set.
     */
    public void adopt(Scope inner) {
        cwds = inner.cwds;
        positional = inner.positional;
    }

    /** A fresh shell started from this one ({@code bash -c}): only exported variables survive. */
    Scope child(Dialect childDialect, List<Field> args, boolean inherits) {
        Map<String, Field> childVars = new HashMap<>();
        for (String name : exported) {
            Field value = vars.get(name);
            if (value != null) {
                childVars.put(name, value);
            }
        }
        Scope s = new Scope(childDialect, depth + 1, childVars, new HashSet<>(exported), cwds, new HashSet<>(), args,
                knowsAllVariables && inherits);
        return s;
    }

    /** The environment a command started now would get, as far as it is known. */
    Map<String, String> environment() {
        Map<String, String> env = new HashMap<>();
        for (String name : exported) {
            Field f = vars.get(name);
            if (f != null && f.isLiteral()) {
                env.put(name, f.text());
            }
        }
        return env;
    }

    /** A variable's value: the field, {@code null} when known to be unset, or a hole when unknown. */
    public Field lookup(String name) {
        if (vars.containsKey(name)) {
            return vars.get(name);
        }
        return knowsAllVariables ? null : Field.hole();
    }

    public Path singleCwd() {
        return cwds.size() == 1 ? cwds.getFirst() : null;
    }
}
