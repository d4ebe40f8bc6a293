package io.shellgate.judge.internal.analysis;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Span;
import io.shellgate.judge.Verdict;
import io.shellgate.judge.internal.analysis.host.ExampleHostView;
import io.shellgate.judge.internal.analysis.host.GateSecrets;
import io.shellgate.judge.internal.analysis.host.HostView;
import io.shellgate.judge.internal.analysis.host.RecordingHostView;
import io.shellgate.judge.internal.analysis.host.SystemHostView;
import io.shellgate.judge.internal.analysis.host.VerdictMemo;
import io.shellgate.judge.internal.analysis.language.ZshSyntax;
import io.shellgate.judge.internal.analysis.model.Budget;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Findings;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.nested.WindowsBridge;
import io.shellgate.judge.internal.analysis.policy.CompiledPolicy;
import io.shellgate.judge.internal.analysis.walk.Analyzer;
import io.shellgate.judge.internal.syntax.ArgvScript;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.ShellParser;
import io.shellgate.rules.FileFacts;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.Tier;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/** The judge: budgets, the raw-text backstop, the parse, and the analysis, failing closed throughout. */
public final class JudgeEngine implements Judge {

    private final CompiledPolicy policy;
    private final ShellParser parser;
    private final HostView host;
    private final VerdictMemo memo = new VerdictMemo();
    /** The machine asked through a recorder, for {@link #facts}; null for a judge of the example machine. */
    private final Function<FileFacts, HostView> recordedHost;

    private JudgeEngine(CompiledPolicy policy, ShellParser parser, HostView host, Function<FileFacts, HostView> recordedHost) {
        this.policy = policy;
        this.parser = parser;
        this.host = host;
        this.recordedHost = recordedHost;
    }

    /** A judge of the real machine. */
    public static JudgeEngine create(Policy policy, ShellParser parser) throws PolicyException {
        CompiledPolicy compiled = new CompiledPolicy(policy, BuiltInChecks.ALL.checkerNames());
        return new JudgeEngine(compiled, parser, new SystemHostView(compiled.trust),
                files -> new SystemHostView(compiled.trust, files));
    }

    /** A judge of the fixed example machine, for checking policy examples. */
    public static JudgeEngine forExamples(Policy policy, ShellParser parser) throws PolicyException {
        return new JudgeEngine(new CompiledPolicy(policy, BuiltInChecks.ALL.checkerNames()), parser, new ExampleHostView(), null);
    }

    /** The working directory and environment examples are judged in. */
    public static JudgeRequest exampleRequest(String command) {
        return exampleRequest(command, Dialect.BASH);
    }

    /** The same for an example in {@code dialect}; PowerShell and cmd examples also have a Windows profile directory. */
    public static JudgeRequest exampleRequest(String command, Dialect dialect) {
        java.util.Map<String, String> env = dialect.isPosix()
                ? java.util.Map.of("HOME", ExampleHostView.HOME, "PATH", "/usr/local/bin:/usr/bin:/bin", "USER", "user")
                : java.util.Map.of("HOME", ExampleHostView.HOME, "PATH", "/usr/local/bin:/usr/bin:/bin", "USER", "user",
                        "USERPROFILE", "C:\\Users\\user");
        return new JudgeRequest(command, dialect, ExampleHostView.CWD, env);
    }

    @Override
    public Verdict judge(JudgeRequest request) {
        Verdict known = memo.recall(request, host);
        if (known != null) {
            return known;
        }
        RecordingHostView seen = new RecordingHostView(host);
        Verdict verdict = judge(request, seen);
        if (verdict.tier() == Tier.ALLOW) {
            memo.remember(request, verdict, seen.answers());
        }
        return verdict;
    }

    /**
     * The file questions that an allow this judge reached for {@code request} rests on: each
     * question its analysis asked the machine is asked again, through a recorder, and must get the
     * same answer. While every one of the facts returned gets its answer again, the analysis of the
     * same request under the same policy reaches the same allow. Null when this judge remembers no
     * allow for the request, when an answer has changed since, or when the analysis asked something
     * that file facts cannot capture (a glob, a search of a tree, a repository's git config).
     */
    @Override
    public List<FileFacts.Fact> facts(JudgeRequest request) {
        List<Predicate<HostView>> answers = recordedHost == null ? null : memo.answers(request);
        if (answers == null) {
            return null;
        }
        FileFacts files = FileFacts.recording();
        HostView view = recordedHost.apply(files);
        for (Predicate<HostView> answer : answers) {
            if (!answer.test(view)) {
                return null;
            }
        }
        return files.facts();
    }

    private Verdict judge(JudgeRequest request, HostView view) {
        Findings findings = new Findings();
        String text = request.command();
        Span all = new Span(0, text.length());
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > policy.policy.settings().maxInputBytes()) {
            findings.add(Checks.INPUT_TOO_LARGE, Tier.ASK, "the command line is " + bytes + " bytes, more than the budget of "
                    + policy.policy.settings().maxInputBytes() + "; it was not parsed", all);
            return verdict(findings);
        }
        List<RawScanner.Hit> hits = List.of();
        try {
            hits = RawScanner.scan(policy, text, request.dialect().id());
            analyse(request, view, findings);
        } catch (Budget.Exhausted e) {
            findings.add(e.clock ? Checks.TIME_BUDGET : Checks.WORK_BUDGET, Tier.ASK, e.getMessage(), all);
        } catch (StackOverflowError e) {
            findings.add(Checks.NESTING_TOO_DEEP, Tier.ASK, "the command line is nested too deeply to analyse", all);
        } catch (RuntimeException e) {
            findings.add(Checks.INTERNAL_ERROR, Tier.ASK, "shellgate could not finish judging this line (" + e + ")", all);
        }
        // whatever stopped the analysis, a raw-text hit still counts
        RawScanner.apply(findings, hits);
        return verdict(findings);
    }

    private void analyse(JudgeRequest request, HostView view, Findings findings) {
        String text = request.command();
        // counted steps decide; the clock is only a last guard against a cost they do not see
        Budget budget = new Budget(Budget.MAX_STEPS, System.nanoTime() + policy.policy.settings().timeBudgetMillis() * 1_000_000L);
        Analyzer analyzer = new Analyzer(policy, view, findings, parser, budget, GateSecrets.of(request.env()), BuiltInChecks.ALL);
        if (!request.dialect().isPosix()) {
            new WindowsBridge(analyzer, request.env(), request.cwd(), 0, null).judge(text, request.dialect(), false);
            return;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            // bash and tree-sitter disagree on carriage returns and other control characters
            if (Field.isMarker(c) || c < 0x20 && c != '\t' && c != '\n' || c == 0x7f) {
                findings.add(Checks.UNUSUAL_CHARACTERS, Tier.ASK, "the command line contains a control or private-use"
                        + " character (U+" + String.format("%04X", (int) c) + "), which shells do not all read alike",
                        new Span(i, i + 1));
                return;
            }
        }
        if (request.dialect() == io.shellgate.judge.Dialect.ZSH && request.argv() == null) {
            // zsh's glob qualifiers and numeric ranges, rewritten to patterns bash's grammar reads (same length)
            text = ZshSyntax.rewrite(text);
        }
        Script script = request.argv() != null ? ArgvScript.script(request.argv()) : analyzer.parse(text);
        Scope scope = Scope.initial(request.dialect(), request.env(), request.cwd(), request.positional(), request.freshShell());
        analyzer.script(text, script, scope);
    }

    private static Verdict verdict(Findings findings) {
        return new Verdict(findings.tier(), findings.reasons, findings.commands);
    }
}
