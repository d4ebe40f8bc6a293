package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.rules.Tier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * When code runs: a function's body where it is called, with the state of that moment, and the
 * begin, process and end steps of a pipeline's stages in the order PowerShell runs them (every
 * stage's begin before any stage takes input, about_Functions_Advanced_Methods, about_Pipelines).
 * Code that can run at a moment the walk does not follow is judged with the location not known.
 */
final class PsCalls {

    /** How many function calls one script may have judged (each judges the function's body). */
    private static final int MAX_CALLS = 64;

    private final PowerShellJudge ps;
    /** The functions (and filters) the script defined, by lower-case name: their bodies are judged where they are called. */
    private final Map<String, PsAst.FunctionDef> definitions = new HashMap<>();
    /** The functions a call has judged. */
    private final Set<String> called = new HashSet<>();
    /** The functions being judged now (a call inside itself is recursion). */
    private final Deque<String> calling = new ArrayDeque<>();
    private int calls;
    /** Begin blocks judged ahead of their place, for the pipeline being walked: the walk skips them where they are written. */
    private final Set<Object> early = Collections.newSetFromMap(new IdentityHashMap<>());

    PsCalls(PowerShellJudge ps) {
        this.ps = ps;
    }

    /** A function (or filter) definition: its body runs when the function is called, with the state of that moment. */
    void define(String name, PsAst.FunctionDef f) {
        definitions.put(name.toLowerCase(Locale.ROOT), f);
        called.remove(name.toLowerCase(Locale.ROOT));
    }

    /** Whether a script block argument or a block statement was judged ahead of its place. */
    boolean early(Object code) {
        return early.contains(code);
    }

    /**
     * Judges the body of a function the script calls by name, with the state of this moment
     * (location, variables): a function runs where it is called, not where it is written.
     */
    void call(String name, Span span) {
        PsAst.FunctionDef f = definitions.get(name.toLowerCase(Locale.ROOT));
        if (f == null || !enter(name, span)) {
            return;
        }
        ps.nested(() -> ps.statements(f.body()));
        calling.pop();
    }

    /** Starts judging a call of {@code name}; false (having asked) when it is recursion or past the budget of calls. */
    private boolean enter(String name, Span span) {
        String key = name.toLowerCase(Locale.ROOT);
        if (calling.contains(key) || ++calls > MAX_CALLS) {
            ps.host.report(WindowsChecks.DYNAMIC_CODE, Tier.ASK, "the function " + name + (calling.contains(key)
                    ? " calls itself, which shellgate does not follow" : " is called more often than shellgate follows"), span);
            ps.cwd = null;
            return false;
        }
        called.add(key);
        calling.push(key);
        return true;
    }

    /** Functions defined and never called by name: they may still run (a computed call), at a moment not known. */
    void uncalled() {
        // a body walked here may define more functions: look again after each
        for (String next = next(); next != null; next = next()) {
            called.add(next);
            ps.cwd = null;
            PsAst.FunctionDef f = definitions.get(next);
            ps.nested(() -> ps.statements(f.body()));
        }
    }

    private String next() {
        return definitions.keySet().stream().filter(k -> !called.contains(k)).sorted().findFirst().orElse(null);
    }

    /**
     * PowerShell runs the begin step of every stage of a pipeline, in stage order, before any
     * stage takes input: ForEach-Object's {@code -Begin} blocks, and the {@code begin {}} blocks
     * of script blocks run with {@code &} or {@code .} and of the functions the stages call, are
     * judged first. A ForEach-Object end block that moves the location runs before later stages'
     * blocks, at a moment not followed here (a script block's or function's own end block is
     * judged in its stage's place, which leaves the location not known when it moves). Returns
     * what was judged early, for {@link #done} once the pipeline is walked.
     */
    List<Object> beginBlocks(PsAst.Pipeline p) {
        boolean endMoves = false;
        List<Object> judged = new ArrayList<>();
        for (PsAst.Element e : p.elements()) {
            if (!(e instanceof PsAst.CommandCall c)) {
                continue;
            }
            if (c.invocation().isEmpty() && c.name() instanceof PsAst.Literal l
                    && "ForEach-Object".equals(PsNames.cmdlet(l.value(), ps.platform))) {
                endMoves |= forEachObject(c, judged);
                continue;
            }
            PsAst.FunctionDef f = function(c);
            List<PsAst.Statement> body = c.name() instanceof PsAst.ScriptBlock sb ? sb.statements() : f == null ? List.of() : f.body();
            List<PsAst.Statement> begins = named(body, "begin");
            if (!begins.isEmpty() && (f == null || enter(((PsAst.Literal) c.name()).value(), c.span()))) {
                for (PsAst.Statement b : begins) {
                    ps.statements(List.of(b));
                    early.add(b);
                    judged.add(b);
                }
                if (f != null) {
                    calling.pop();
                }
            }
        }
        if (endMoves) {
            ps.cwd = null;
        }
        return judged;
    }

    /** The pipeline {@link #beginBlocks} judged is walked: the blocks are judged in place again at their next run. */
    void done(List<Object> judged) {
        judged.forEach(early::remove);
    }

    /** ForEach-Object's begin blocks, judged now; returns whether an end block moves the location. */
    private boolean forEachObject(PsAst.CommandCall c, List<Object> judged) {
        PsBinding b = PsBinding.bind(PsCmdlets.get("ForEach-Object"), c, ps.code);
        List<PsAst.Expr> scripts = new ArrayList<>(b.get("Process"));
        scripts.addAll(b.get("RemainingScripts"));
        List<PsAst.Expr> begins = new ArrayList<>(b.get("Begin"));
        List<PsAst.Expr> ends = new ArrayList<>(b.get("End"));
        // { begin } { process } { end }: several script blocks by position are begin, process..., end
        if (begins.isEmpty() && scripts.size() > 1) {
            begins.add(scripts.getFirst());
        }
        if (ends.isEmpty() && scripts.size() > 2) {
            ends.add(scripts.getLast());
        }
        for (PsAst.Expr x : begins) {
            ps.expression(x);
            early.add(x);
            judged.add(x);
        }
        return ends.stream().anyMatch(x -> x instanceof PsAst.ScriptBlock sb && PsLocations.changes(sb.statements()));
    }

    /** The function a stage calls, as {@link PsCommandJudge} resolves its name; null when it calls none the script defined. */
    private PsAst.FunctionDef function(PsAst.CommandCall c) {
        if (c.invocation().equals(".") || !(c.name() instanceof PsAst.Literal l)) {
            return null;
        }
        String name = l.value();
        return ps.functions.contains(name.toLowerCase(Locale.ROOT)) && !PsNames.isAlias(name, ps.platform)
                ? definitions.get(name.toLowerCase(Locale.ROOT)) : null;
    }

    /** A script block's or function's named blocks of one kind ({@code begin}, {@code process}, {@code end}). */
    private static List<PsAst.Statement> named(List<PsAst.Statement> body, String keyword) {
        return body.stream().filter(s -> s instanceof PsAst.Block b && b.keyword().equals(keyword)).toList();
    }
}
