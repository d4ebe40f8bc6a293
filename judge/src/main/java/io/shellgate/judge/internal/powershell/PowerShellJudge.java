package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.judge.internal.windows.WindowsHost;
import io.shellgate.judge.internal.windows.WindowsReads;
import io.shellgate.rules.Tier;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Judges a PowerShell script: parses it, then walks every statement, pipeline, command,
 * script block and subexpression, in order, keeping the working directory where it is known.
 * Whatever it cannot parse or follow asks.
 */
public final class PowerShellJudge {

    final WindowsHost host;
    final String code;
    final boolean windowsPowerShell;
    /** Whose aliases the names have: pwsh on Linux and macOS leaves ls, cat, sort... to the system. */
    final PsNames.Platform platform;
    /**
     * The current location with forward slashes ({@code Env:/} on a drive that is not a file
     * system); null once a cd to somewhere unknown ran.
     */
    String cwd;
    /** The locations Push-Location saved. */
    final java.util.Deque<String> pushed = new java.util.ArrayDeque<>();
    /** The functions the script defined so far, by lower-case name. */
    final Set<String> functions = new HashSet<>();
    /** Where and when function bodies and begin blocks run. */
    final PsCalls calls;
    /** Variables the script set to a constant (null: set to something else), for the policy's rules only. */
    final Map<String, String> assigned = new HashMap<>();
    /** What each subexpression walked so far hands on, for a pipeline it heads or a Write-Output it is given to. */
    final Map<PsAst.SubExpr, PsFlow> flows = new java.util.IdentityHashMap<>();
    /** What the last pipeline walked handed on. */
    private PsFlow last = new PsFlow.None();
    private boolean budgetSpent;
    /** The types of expressions, for the methods called on them. */
    final PsTyping typing;
    /** How deep inside branches, loops, functions and script blocks the walk is (0: the script's own statements). */
    private int nesting;
    final PsCommandJudge commands;
    private final PsAccess access;

    private PowerShellJudge(WindowsHost host, String code, boolean windowsPowerShell, List<PsAst.Statement> script) {
        this.host = host;
        this.code = code;
        this.windowsPowerShell = windowsPowerShell;
        this.platform = host.windows() ? PsNames.Platform.WINDOWS : PsNames.Platform.UNIX;
        this.cwd = host.cwd();
        this.commands = new PsCommandJudge(this);
        this.calls = new PsCalls(this);
        this.access = new PsAccess(this);
        this.typing = new PsTyping(this, script);
    }

    /**
     * Judges {@code code} into {@code host}.
     *
     * @param windowsPowerShell read it as Windows PowerShell 5.1 (no {@code &&}/{@code ||}) rather than 7
     */
    public static void judge(String code, WindowsHost host, boolean windowsPowerShell) {
        int odd = WindowsChecks.unusualCharacter(code);
        if (odd >= 0) {
            host.report(WindowsChecks.UNUSUAL_CHARACTERS, Tier.ASK, "the script contains a control, format or private-use"
                    + " character (U+" + String.format("%04X", (int) code.charAt(odd)) + "), which PowerShell may not read as"
                    + " shellgate does", new Span(odd, odd + 1));
            return;
        }
        PsParser.Result parsed;
        try {
            parsed = PsParser.parse(code, windowsPowerShell);
        } catch (PsSyntaxException e) {
            int at = Math.min(e.position, code.length());
            host.report(WindowsChecks.PARSE_ERROR, Tier.ASK, "the PowerShell script does not parse (" + e.getMessage()
                    + "), so shellgate cannot tell what it would run", new Span(at, Math.min(code.length(), at + 1)));
            return;
        }
        parsed.comments().forEach(host::data);
        PowerShellJudge ps = new PowerShellJudge(host, code, windowsPowerShell, parsed.statements());
        ps.statements(parsed.statements());
        ps.calls.uncalled();
    }

    void statements(List<PsAst.Statement> statements) {
        for (PsAst.Statement s : statements) {
            if (budgetSpent || host.pastDeadline()) {
                if (!budgetSpent) {
                    host.report(WindowsChecks.TIME_BUDGET, Tier.ASK, "judging the script took longer than the time budget",
                            s.span());
                }
                budgetSpent = true;
                return;
            }
            if (!calls.early(s)) {
                statement(s);
            }
        }
    }

    /** Runs {@code walk} one level deeper inside functions and script blocks. */
    void nested(Runnable walk) {
        nesting++;
        walk.run();
        nesting--;
    }

    private void statement(PsAst.Statement statement) {
        switch (statement) {
            case PsAst.Pipeline p -> last = pipeline(p);
            case PsAst.Assignment a -> {
                access.target(a.target(), a.span());
                last = new PsFlow.Unknown("the value of an assignment");
                statement(a.value());
                remember(a);
                // a variable set once, by a statement that runs before anything after it, keeps the type of its value
                if (nesting == 0 && a.operator().equals("=") && a.target() instanceof PsAst.Variable v && typing.setOnce(v.name())) {
                    typing.variables.put(PsVariables.name(v.name()), typeOf(List.of(a.value())));
                }
            }
            case PsAst.Block b -> {
                boolean moves = PsLocations.changes(b);
                if (moves) {
                    cwd = null;
                }
                if (b.keyword().equals("switch-file")) {
                    commands.readsFile(b.expressions().getFirst(), b.span(), "switch -File");
                    return;
                }
                // a trap's body runs when an error happens somewhere in its scope: at a moment, and in a location, not known
                String before = cwd;
                if (b.keyword().equals("trap")) {
                    cwd = null;
                }
                nesting++;
                block(b);
                nesting--;
                if (b.keyword().equals("trap")) {
                    cwd = before;
                }
                if (moves) {
                    // whether, or how often, the body ran is not known: nor is the location after it
                    cwd = null;
                }
            }
            case PsAst.FunctionDef f -> {
                String name = f.name().substring(f.name().indexOf(':') + 1);
                functions.add(name.toLowerCase(Locale.ROOT));
                boolean exists = PsNames.cmdlet(name) != null || PsNames.isAlias(name)
                        || host.at(cwd).program(name, false).path() != null;
                String state = PsState.function(f.name(), exists);
                if (state != null) {
                    host.report(WindowsChecks.SHELL_STATE, Tier.ASK, state, f.span());
                }
                calls.define(name, f);
            }
        }
    }

    /**
     * The parts of a keyword statement: a foreach variable has the type of its collection's
     * elements in the body, and {@code $_} in a switch's clauses the type of what it switches on.
     */
    private void block(PsAst.Block b) {
        if (b.keyword().equals("switch") && !b.bodies().isEmpty()) {
            last = new PsFlow.Unknown("a value");
            List<PsAst.Statement> input = b.bodies().getFirst();
            statements(input);
            boolean file = input.size() == 1 && input.getFirst() instanceof PsAst.Block f && f.keyword().equals("switch-file");
            String before = typing.item;
            typing.item = file ? PsTypes.STRING : typeOf(input);
            b.expressions().forEach(this::expression);
            b.bodies().subList(1, b.bodies().size()).forEach(this::statements);
            typing.item = before;
            return;
        }
        b.expressions().forEach(this::expression);
        for (PsAst.Expr e : b.expressions()) {
            if (b.keyword().equals("foreach") && e instanceof PsAst.Variable v) {
                assigned.put(PsValues.name(v), null);
            }
        }
        if (b.keyword().equals("foreach") && b.bodies().size() == 2 && b.expressions().getFirst() instanceof PsAst.Variable v) {
            last = new PsFlow.Unknown("a collection");
            statements(b.bodies().getFirst());
            String name = PsVariables.name(v.name());
            if (typing.setOnce(v.name())) {
                typing.variables.put(name, typeOf(b.bodies().getFirst()));
            }
            statements(b.bodies().get(1));
            typing.variables.remove(name);
            return;
        }
        b.bodies().forEach(this::statements);
    }

    /**
     * The type of what statements just walked produce: an expression's own type, else the type of
     * what the last pipeline handed on.
     */
    private String typeOf(List<PsAst.Statement> statements) {
        if (statements.size() == 1 && statements.getFirst() instanceof PsAst.Pipeline p && p.elements().size() == 1
                && p.elements().getFirst() instanceof PsAst.ExprElement e) {
            return typing.of(e.expr());
        }
        return statements.size() == 1 ? last.type() : null;
    }

    /** Keeps the constant a variable was set to ({@code $p = 'C:\'}), for the policy's rules; anything else forgets it. */
    private void remember(PsAst.Assignment a) {
        PsAst.Expr target = a.target() instanceof PsAst.Compound c && !c.parts().isEmpty() ? c.parts().getFirst() : a.target();
        if (!(target instanceof PsAst.Variable v)) {
            return;
        }
        String constant = null;
        if (a.operator().equals("=") && target == a.target() && a.value() instanceof PsAst.Pipeline p && p.elements().size() == 1
                && p.elements().getFirst() instanceof PsAst.ExprElement e && e.redirects().isEmpty()) {
            constant = PsValues.value(e.expr(), host, assigned);
        }
        assigned.put(PsValues.name(v), constant);
    }

    /** Judges a pipeline; returns what its last stage hands on. */
    private PsFlow pipeline(PsAst.Pipeline p) {
        List<Object> early = calls.beginBlocks(p);
        boolean downloads = false;
        PsFlow flow = new PsFlow.None();
        for (PsAst.Element e : p.elements()) {
            switch (e) {
                case PsAst.ExprElement x -> {
                    expression(x.expr());
                    redirects(x.redirects());
                    downloads |= PsDownloads.in(x.expr());
                    flow = PsPipeline.of(x.expr(), this);
                }
                case PsAst.CommandCall c -> {
                    PsCommandJudge.Stage stage = commands.command(c, flow, downloads);
                    downloads = stage.downloads();
                    flow = stage.output();
                }
            }
        }
        calls.done(early);
        return flow;
    }

    /** Judges what an expression runs: subexpressions, script blocks and .NET calls. */
    void expression(PsAst.Expr e) {
        switch (e) {
            case PsAst.Literal l -> {
                // a constant
            }
            case PsAst.Expandable x -> x.parts().forEach(this::expression);
            case PsAst.Variable v -> access.variable(v);
            case PsAst.SubExpr s -> {
                last = new PsFlow.Unknown("a subexpression");
                statements(s.statements());
                flows.put(s, s.statements().size() == 1 ? last : new PsFlow.Unknown("a subexpression of several statements"));
            }
            case PsAst.ScriptBlock b -> {
                boolean moves = PsLocations.changes(b.statements());
                if (moves) {
                    cwd = null;
                }
                nesting++;
                statements(b.statements());
                nesting--;
                if (moves) {
                    cwd = null;
                }
            }
            case PsAst.TypeName t -> {
                // a type: only what is done with it matters; an attribute may run code at each call
                String why = PsConversions.isAttribute(t.name()) ? PsConversions.attribute(t.name()) : null;
                if (why != null) {
                    host.report(WindowsChecks.DYNAMIC_CODE, Tier.ASK, why, t.span());
                }
            }
            case PsAst.Member m -> access.member(m);
            case PsAst.Compound c -> {
                c.parts().forEach(this::expression);
                String why = c.kind() == PsAst.Compound.Kind.CAST ? PsConversions.why(c, this) : null;
                if (why != null) {
                    host.report(WindowsChecks.DOTNET_CALL, Tier.ASK, why, c.span());
                }
            }
        }
    }

    /** Judges redirections: any that writes a file asks. */
    void redirects(List<PsAst.Redirect> redirects) {
        for (PsAst.Redirect r : redirects) {
            if (r.target() == null) {
                continue;
            }
            expression(r.target());
            if (r.target() instanceof PsAst.Variable v && v.name().equalsIgnoreCase("null")) {
                continue;
            }
            String target = PsValues.value(r.target(), host);
            host.report(WindowsChecks.WRITES_FILE, Tier.ASK, "the redirection " + r.operator() + " writes to "
                    + (target == null ? "a file named at run time" : target), r.span());
        }
    }

    /** Where a {@code Set-Location} to {@code path} leads from the current location (case kept), or null when not known. */
    String location(String path) {
        return WindowsReads.location(host, path, cwd, true);
    }
}
