package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.host.GateSecrets;
import io.shellgate.judge.internal.analysis.host.HostView;
import io.shellgate.judge.internal.analysis.language.ZshSyntax;
import io.shellgate.judge.internal.analysis.model.Budget;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Expander;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Findings;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.model.Stdin;
import io.shellgate.judge.internal.analysis.policy.CompiledPolicy;
import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Redirect;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.ShellParser;
import io.shellgate.judge.internal.syntax.Word;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Walks a parsed command line and judges every command it can run, in the order the shell would
 * run them, keeping track of variables and the working directory.
 */
public final class Analyzer implements Expander.Callbacks {

    public final CompiledPolicy policy;
    public final HostView host;
    public final Findings findings;
    public final ShellParser parser;
    public final Budget budget;
    /** The judge server's run directories, whose files reading asks. */
    public final GateSecrets gateSecrets;
    /** The checks, commands and dialects judged above the walk. */
    public final Extensions extensions;
    /** What a hundred tree-sitter operations cost in budget steps. */
    static final long PARSE_STEP_COST = 10;
    /** The text of the command line being walked (of the nested script, inside bash -c). */
    private String text = "";
    final Expander expander = new Expander(this);
    public final CommandJudge commands;
    /** What the program checks see of this judgement. */
    final CheckContext context = new WalkContext(this);
    /** Scripts (substitutions, process substitutions) whose output may come from the network. */
    final Map<Script, Boolean> downloading = new IdentityHashMap<>();
    /** When judging a nested script ({@code bash -c '...'}), every reason points at the outer command. */
    private Span spanOverride;

    public Analyzer(CompiledPolicy policy, HostView host, Findings findings, ShellParser parser, Budget budget,
            GateSecrets gateSecrets, Extensions extensions) {
        this.policy = policy;
        this.extensions = extensions;
        this.gateSecrets = gateSecrets;
        this.host = host;
        this.findings = findings;
        this.parser = parser;
        this.budget = budget;
        this.commands = new CommandJudge(this);
    }

    /** Adds a finding; inside a nested script it points at the outer command. */
    public void add(String rule, Tier tier, String message, Span span) {
        findings.add(rule, tier, message, spanOverride != null ? spanOverride : span);
    }

    public boolean nestedText() {
        return spanOverride != null;
    }

    String text() {
        return text;
    }

    /** Marks a span of the line as data, not code (not inside a nested script, whose spans are not the line's). */
    public void data(Span span) {
        if (spanOverride == null) {
            findings.dataSpans.add(span);
        }
    }

    /** Judges a whole script in {@code scope}; returns whether its output may come from the network. */
    public boolean script(String source, Script script, Scope scope) {
        String saved = text;
        text = source;
        try {
            return walk(script, scope);
        } finally {
            text = saved;
        }
    }

    private boolean walk(Script script, Scope scope) {
        if (!script.errors().isEmpty()) {
            Span first = script.errors().getFirst();
            add(Checks.PARSE_ERROR, Tier.ASK, "the command line does not parse cleanly as " + scope.dialect.id()
                    + ", so shellgate cannot tell what it would run", first);
        }
        for (Span comment : script.comments()) {
            data(comment);
        }
        if (scope.dialect == Dialect.ZSH && scope.depth == 0 && !script.comments().isEmpty()) {
            // an interactive zsh reads # as a word unless INTERACTIVE_COMMENTS is set: "ls # ; rm x" runs rm
            add(Checks.UNKNOWN_SYNTAX, Tier.ASK, "an interactive zsh reads # as an ordinary character unless the"
                    + " interactive_comments option is set, so what follows it may run", script.comments().getFirst());
        }
        return command(script.body(), scope, Stdin.NONE);
    }

    /**
     * Judges text that a command runs as a script ({@code bash -c TEXT}, {@code eval TEXT}).
     *
     * @param span the outer command, which every reason found inside points at
     */
    public boolean subscript(String text, Dialect dialect, Scope scope, Span span) {
        if (scope.depth > policy.policy.settings().maxDepth()) {
            add(Checks.NESTING_TOO_DEEP, Tier.ASK, "scripts are nested more than " + policy.policy.settings().maxDepth()
                    + " levels deep (bash -c, eval, substitutions)", span);
            return false;
        }
        if (!dialect.isPosix()) {
            Map<String, String> env = new java.util.HashMap<>();
            scope.vars.forEach((k, v) -> {
                if (v != null && v.isLiteral() && scope.exported.contains(k)) {
                    env.put(k, v.plain());
                }
            });
            java.nio.file.Path cwd = scope.cwds.size() == 1 ? scope.cwds.getFirst() : null;
            extensions.dialects().judge(this, text, dialect, env, cwd, scope.depth, spanOverride != null ? spanOverride : span);
            return false;
        }
        if (dialect == Dialect.ZSH) {
            text = ZshSyntax.rewrite(text);
        }
        Script nested = parse(text);
        Span saved = spanOverride;
        spanOverride = saved != null ? saved : span;
        try {
            return script(text, nested, scope);
        } finally {
            spanOverride = saved;
        }
    }

    /** Parses text within what is left of the budget; a parse past it stops the judging as the budget does. */
    public Script parse(String text) {
        budget.spend(text.length() + 1L);
        try {
            return parser.parse(text, new ShellParser.Limits(budget.deadline(), budget.remaining() / PARSE_STEP_COST));
        } catch (ShellParser.ParseBudgetException e) {
            throw new Budget.Exhausted(e.getMessage(), e.getMessage().contains("time"));
        }
    }

    @Override
    public void nested(Script script, Scope scope) {
        Scope inner = scope.copy();
        if (inner.depth > policy.policy.settings().maxDepth()) {
            add(Checks.NESTING_TOO_DEEP, Tier.ASK, "substitutions are nested too deeply", script.body().span());
            downloading.put(script, false);
            return;
        }
        downloading.put(script, command(script.body(), inner, Stdin.NONE));
    }

    @Override
    public void opaque(Part.Opaque part) {
        add(Checks.UNKNOWN_SYNTAX, Tier.ASK, "shellgate does not understand part of a word: " + part.why(), part.span());
    }

    @Override
    public void assigned(String name, Field subscript, Field value, Scope scope, Span span) {
        Assignments.assign(this, scope, name, subscript, value.asExpanded(), false, span, "${" + name + ":=…} sets");
    }

    @Override
    public void expanded(String name, Scope scope, Span span) {
        if (policy.isSecretVariable(name)) {
            add(Checks.PRINTS_ENVIRONMENT, Tier.ASK, "expands $" + name + ", whose name marks a secret", span);
        }
    }

    @Override
    public void arithmetic(Field expression, Scope scope, Span span) {
        Arithmetic.check(this, expression, scope, span);
    }

    @Override
    public void subscript(String array, Field subscript, Scope scope, Span span) {
        Arithmetic.subscript(this, array, subscript, scope, span);
    }

    @Override
    public void variableName(Field name, Scope scope, Span span) {
        Arithmetic.name(this, name, scope, span);
    }

    @Override
    public Field indirect(String name, Field subscript, Scope scope, Span span) {
        Field target = scope.lookup(name);
        if (subscript == null && target != null && target.isLiteral() && Assignments.isName(target.plain())) {
            // ${!x} where x plainly names a variable: that variable's value
            expanded(target.plain(), scope, span);
            Field value = scope.lookup(target.plain());
            return value == null ? null : value.asExpanded();
        }
        add(Checks.DYNAMIC_CODE, Tier.ASK, "${!" + name + (subscript == null ? "" : "[…]") + "} expands the variable that "
                + name + " names; a name with a subscript, such as a[$(cmd)], runs the command", span);
        return Field.hole();
    }

    @Override
    public Budget budget() {
        return budget;
    }

    /** Whether content from the network may flow into this field. */
    public boolean downloads(Field f) {
        for (Script s : f.producers()) {
            if (Boolean.TRUE.equals(downloading.get(s))) {
                return true;
            }
        }
        return false;
    }

    /** Judges one command; returns whether its output may come from the network. */
    boolean command(Command c, Scope scope, Stdin stdin) {
        return switch (c) {
            case Command.Simple s -> commands.judge(s, scope, stdin);
            case Command.Pipeline p -> pipeline(p, scope, stdin);
            case Command.Sequence s -> {
                boolean any = false;
                for (Command item : s.items()) {
                    any |= command(item, scope, stdin);
                }
                yield any;
            }
            case Command.Background b -> command(b.body(), scope.copy(), stdin);
            case Command.Negated n -> command(n.body(), scope, stdin);
            case Command.Subshell s -> command(s.body(), scope.copy(), stdin);
            case Command.Group g -> command(g.body(), scope, stdin);
            case Command.Redirected r -> {
                Stdin in = redirects(r.redirects(), scope, stdin, null);
                yield command(r.body(), scope, in);
            }
            case Command.Compound k -> compound(k, scope, stdin);
            case Command.FunctionDef f -> {
                function(f, scope);
                yield false;
            }
            case Command.Opaque o -> {
                add(Checks.UNKNOWN_SYNTAX, Tier.ASK, o.why(), o.span());
                yield false;
            }
        };
    }

    /** The pipeline stage being judged and the one that reads its output (null for the last), for {@code Special}. */
    public Command stage;
    public Command nextStage;

    private boolean pipeline(Command.Pipeline p, Scope scope, Stdin stdin) {
        List<Command> upstream = new ArrayList<>(stdin.upstream());
        boolean downloads = stdin.downloads();
        for (int i = 0; i < p.stages().size(); i++) {
            Command stage = p.stages().get(i);
            this.stage = stage;
            this.nextStage = i + 1 < p.stages().size() ? p.stages().get(i + 1) : null;
            // every stage runs in a subshell of its own
            downloads |= command(stage, scope.copy(), new Stdin(List.copyOf(upstream), downloads));
            upstream.add(stage);
        }
        this.stage = null;
        this.nextStage = null;
        return downloads;
    }

    private boolean compound(Command.Compound k, Scope scope, Stdin stdin) {
        if (k.variable() != null) {
            return loop(k, scope, stdin);
        }
        for (Word w : k.words()) {
            expander.single(w, scope);
        }
        boolean any = false;
        for (Command body : k.bodies()) {
            any |= command(body, scope, stdin);
        }
        return any;
    }

    /** Loops of a few known values run the body once for each, in order, as the shell does. */
    private static final int MAX_LOOP_VALUES = 16;

    /**
     * {@code for NAME in WORDS} and {@code select}: NAME is assigned (and judged as an assignment);
     * when the values are known, the body is judged with each of them in turn, so that
     * {@code for i in 1 2 3; do echo $((i*2)); done} reads known numbers.
     */
    private boolean loop(Command.Compound k, Scope scope, Stdin stdin) {
        List<Field> values = new ArrayList<>();
        for (Word w : k.words()) {
            values.addAll(expander.expand(w, scope));
        }
        boolean known = !values.isEmpty() && values.size() <= MAX_LOOP_VALUES
                && values.stream().allMatch(v -> !v.hasUnknown() && (v.isLiteral() || values.size() == 1));
        if (k.words().isEmpty()) {
            // for NAME; do: the positional parameters
            known = false;
        }
        if (!known || values.stream().allMatch(v -> Arithmetic.isNumber(v.plain()))) {
            Field value = known ? new Field(String.valueOf(Field.NUMBER), List.of(), false, true) : Field.hole();
            Assignments.assign(this, scope, k.variable(), null, value, false, k.span(), k.kind() + " sets");
            return body(k, scope, stdin);
        }
        boolean any = false;
        for (int i = 0; i < values.size(); i++) {
            Assignments.assign(this, scope, k.variable(), null, values.get(i).asExpanded(), false, k.span(), k.kind() + " sets");
            int commands = findings.commands.size();
            any |= body(k, scope, stdin);
            if (i > 0) {
                // the commands of the line are listed once, as written
                findings.commands.subList(commands, findings.commands.size()).clear();
            }
        }
        return any;
    }

    private boolean body(Command.Compound k, Scope scope, Stdin stdin) {
        boolean any = false;
        for (Command body : k.bodies()) {
            any |= command(body, scope, stdin);
        }
        return any;
    }

    private void function(Command.FunctionDef f, Scope scope) {
        scope.functions.add(f.name());
        Detectors.forkBomb(this, f);
        Scope body = scope.copy();
        body.positional = null;
        command(f.body(), body, Stdin.NONE);
    }

    /**
     * Judges redirections; returns the standard input they give the command.
     *
     * @param program the command's name, for the data check of heredocs, or null
     */
    Stdin redirects(List<Redirect> redirects, Scope scope, Stdin stdin, String program) {
        return Redirects.judge(this, redirects, scope, stdin, program);
    }
}
