package io.shellgate.judge.internal.analysis.nested;

import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.policy.PathSet;
import io.shellgate.judge.internal.analysis.walk.Analyzer;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.cmd.CmdJudge;
import io.shellgate.judge.internal.powershell.PowerShellJudge;
import io.shellgate.judge.internal.windows.SecretNames;
import io.shellgate.judge.internal.windows.WindowsHost;
import io.shellgate.judge.internal.windows.WindowsPaths;
import io.shellgate.rules.Rule;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The judge around the PowerShell and cmd judges: their reasons and commands go to the same
 * findings, their nested code to the judge of its dialect, programs resolve on this machine
 * ({@code PATHEXT}, cmd's working directory first), and words that are neither cmdlets nor
 * builtins are judged by the bash judge as the same literal words.
 */
public final class WindowsBridge implements WindowsHost {

    private final Analyzer analyzer;
    private final Map<String, String> env;
    private final Path cwd;
    private final int depth;
    /** Inside a nested script every reason points at the outer command. */
    private final Span override;

    public WindowsBridge(Analyzer analyzer, Map<String, String> env, Path cwd, int depth, Span override) {
        this.analyzer = analyzer;
        this.env = Map.copyOf(env);
        this.cwd = cwd;
        this.depth = depth;
        this.override = override;
    }

    /** The bridge for code a bash command hands to PowerShell or cmd. */
    static WindowsBridge fromBash(Analyzer a, Invocation inv) {
        Map<String, String> env = new HashMap<>();
        inv.env.forEach((k, v) -> {
            if (v != null && v.isLiteral()) {
                env.put(k, v.plain());
            }
        });
        Path cwd = inv.scope.cwds.size() == 1 ? inv.scope.cwds.getFirst() : null;
        return new WindowsBridge(a, env, cwd, inv.scope.depth, a.nestedText() ? inv.span() : null);
    }

    /** Judges a script in PowerShell or cmd for the analyzer: the walk's {@link io.shellgate.judge.internal.analysis.walk.DialectJudge}. */
    public static void judgeScript(Analyzer a, String text, Dialect dialect, Map<String, String> env, Path cwd, int depth, Span span) {
        new WindowsBridge(a, env, cwd, depth, span).judge(text, dialect, false);
    }

    /** Judges {@code code} in {@code dialect} (PowerShell or cmd). */
    public void judge(String code, Dialect dialect, boolean windowsPowerShell) {
        if (dialect == Dialect.CMD) {
            CmdJudge.judge(code, this);
        } else {
            PowerShellJudge.judge(code, this, windowsPowerShell);
        }
    }

    @Override
    public void report(String rule, Tier tier, String message, Span span) {
        analyzer.findings.add(rule, tier, message, override != null ? override : span);
    }

    @Override
    public void data(Span span) {
        if (override == null) {
            analyzer.findings.dataSpans.add(span);
        }
    }

    @Override
    public void command(List<String> argv, String resolved, Tier tier, Span span) {
        analyzer.findings.commands.add(new CommandInfo(argv, List.of(), resolved, tier, override != null ? override : span, depth));
    }

    @Override
    public int mark() {
        return analyzer.findings.mark();
    }

    @Override
    public Tier tierSince(int mark) {
        return analyzer.findings.tierSince(mark);
    }

    @Override
    public boolean windows() {
        return WindowsPrograms.windowsLike(env);
    }

    @Override
    public Map<String, String> env() {
        return env;
    }

    @Override
    public WindowsHost at(String location) {
        Path p = location == null || WindowsPaths.nonFileDrive(location) != null ? null : path(location);
        return java.util.Objects.equals(p, cwd) ? this : new WindowsBridge(analyzer, env, p, depth, override);
    }

    @Override
    public String cwd() {
        return cwd == null ? null : WindowsPaths.slashes(cwd.toString());
    }

    @Override
    public String home() {
        String home = env.get("USERPROFILE");
        return WindowsPaths.slashes(home != null ? home : env.get("HOME"));
    }

    @Override
    public boolean pastDeadline() {
        return analyzer.budget.exhausted();
    }

    @Override
    public int depth() {
        return depth;
    }

    @Override
    public int maxDepth() {
        return analyzer.policy.policy.settings().maxDepth();
    }

    @Override
    public List<Rule> rules(Dialect dialect) {
        return analyzer.policy.policy.rules().stream().filter(r -> r.dialects().contains(dialect.id())).toList();
    }

    @Override
    public Rule detector(String name) {
        return analyzer.policy.detectors.get(name);
    }

    @Override
    public List<String> pathSet(String name) {
        return analyzer.policy.policy.paths().get(name);
    }

    @Override
    public String sensitive(String path, boolean recursive) {
        PathSet set = analyzer.policy.paths("sensitive");
        String home = home();
        String run = analyzer.gateSecrets.holding(path);
        if (run == null && recursive) {
            run = analyzer.gateSecrets.under(path);
        }
        if (run != null) {
            return "it is in or holds " + run + ", shellgate's run directory, whose files let a program answer in the judge's place";
        }
        for (String[] form : List.of(new String[] {path, home}, new String[] {path.toLowerCase(Locale.ROOT),
                home == null ? null : home.toLowerCase(Locale.ROOT)})) {
            if (set.contains(form[0], form[1]) || recursive && set.isAncestorOfMember(form[0], form[1])) {
                String pattern = set.matching(form[0], form[1]);
                return "it is a sensitive path" + (pattern == null ? "" : " (" + pattern + ")");
            }
        }
        return null;
    }

    @Override
    public boolean isDirectory(String path) {
        Path p = path(path);
        return p != null && analyzer.host.isDirectory(p);
    }

    @Override
    public String realPath(String path) {
        Path p = path(path);
        Path real = p == null ? null : analyzer.host.realPath(p);
        return real == null ? null : WindowsPaths.slashes(real.toString());
    }

    @Override
    public List<String> children(String dir, int limit) {
        // two patterns: the bash globber keeps names that start with a dot to patterns that do
        Path d = path(dir);
        if (d == null) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (String pattern : List.of(String.valueOf(Field.STAR), "." + Field.STAR)) {
            List<Path> found = analyzer.host.glob(d, new Field(pattern, List.of(), false), limit);
            if (found == null) {
                return null;
            }
            for (Path p : found) {
                String name = p.getFileName() == null ? null : p.getFileName().toString();
                if (name != null && !name.equals(".") && !name.equals("..")) {
                    names.add(name);
                }
            }
        }
        return names.size() > limit ? null : names;
    }

    @Override
    public String sensitiveInside(String dir, java.util.function.Predicate<String> names) {
        String home = home();
        Path d = path(dir);
        return d == null ? null : analyzer.host.findInside(d, "windows-sensitive:" + home, p -> sensitive(WindowsPaths.slashes(p), false) != null,
                p -> names.test(p.substring(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1)));
    }

    /** A path of this machine, or null when the text cannot name one here. */
    private static Path path(String text) {
        try {
            return Path.of(text);
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    @Override
    public boolean secretVariable(String name) {
        return SecretNames.isSecret(name);
    }

    @Override
    public Program program(String name, boolean searchWorkingDirectoryFirst) {
        return WindowsPrograms.resolve(analyzer.host, env, cwd, name, searchWorkingDirectoryFirst);
    }

    @Override
    public void nested(String code, Dialect dialect, boolean windowsPowerShell, Span span) {
        Span outer = override != null ? override : span;
        if (depth + 1 > maxDepth()) {
            report(Checks.NESTING_TOO_DEEP, Tier.ASK, "scripts are nested more than " + maxDepth()
                    + " levels deep (powershell -Command, cmd /c, Invoke-Expression)", outer);
            return;
        }
        if (dialect.isPosix()) {
            analyzer.subscript(code, dialect, scope(dialect, depth + 1), outer);
            return;
        }
        new WindowsBridge(analyzer, env, cwd, depth + 1, outer).judge(code, dialect, windowsPowerShell);
    }

    @Override
    public void nativeProgram(List<String> argv, Span span) {
        StringBuilder sb = new StringBuilder();
        for (String word : argv) {
            sb.append(sb.isEmpty() ? "" : " ").append('\'').append(word.replace("'", "'\\''")).append('\'');
        }
        analyzer.subscript(sb.toString(), Dialect.BASH, scope(Dialect.BASH, depth), override != null ? override : span);
    }

    private Scope scope(Dialect dialect, int level) {
        Map<String, Field> vars = new HashMap<>();
        env.forEach((k, v) -> vars.put(k, Field.literal(v)));
        List<Path> cwds = cwd == null ? List.of() : List.of(cwd);
        return new Scope(dialect, level, vars, new HashSet<>(env.keySet()), cwds, new HashSet<>(), null, false);
    }

    static List<String> pathEntries(Map<String, String> env) {
        String path = env.get("PATH");
        if (path == null) {
            path = env.get("Path");
        }
        List<String> out = new ArrayList<>();
        if (path != null) {
            boolean windows = WindowsPrograms.windowsLike(env);
            for (String e : path.split(windows ? ";" : ":", -1)) {
                out.add(e);
            }
        }
        return out;
    }
}
