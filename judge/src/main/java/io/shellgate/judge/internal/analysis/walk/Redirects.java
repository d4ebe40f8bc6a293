package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.model.ShellPaths;
import io.shellgate.judge.internal.analysis.model.Stdin;
import io.shellgate.judge.internal.syntax.Redirect;
import io.shellgate.rules.Rule;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.List;

/**
 * Judges redirections: writing a file asks (except harmless outputs such as {@code /dev/null} and
 * descriptor duplication), writing a disk device or the sysrq trigger is refused, reading a
 * sensitive file asks, and {@code /dev/tcp} asks either way.
 */
public final class Redirects {

    private Redirects() {}

    static Stdin judge(Analyzer a, List<Redirect> redirects, Scope scope, Stdin stdin, String program) {
        Stdin result = stdin;
        boolean dataConsumer = program != null && !isCodeReader(a, program);
        for (Redirect r : redirects) {
            String op = r.op();
            if (r.heredoc() != null) {
                Field body = a.expander.single(r.heredoc().body(), scope);
                if (dataConsumer) {
                    a.data(r.span());
                }
                result = new Stdin(List.of(), a.downloads(body), body.isLiteral() ? body.text() : null, true);
                continue;
            }
            if (r.target() == null) {
                a.add(Checks.UNKNOWN_SYNTAX, Tier.ASK, "a redirection without a target", r.span());
                continue;
            }
            Field target = a.expander.single(r.target(), scope);
            switch (op) {
                case "<<<" -> {
                    if (dataConsumer) {
                        a.data(r.span());
                    }
                    result = new Stdin(List.of(), a.downloads(target), target.isLiteral() ? target.text() + "\n" : null, true);
                }
                case "<" -> {
                    String path = target.plain();
                    if (path.startsWith("/dev/tcp/") || path.startsWith("/dev/udp/")) {
                        a.add(Checks.NETWORK_REDIRECT, Tier.ASK, "reads from the network (" + target.display() + ")", r.span());
                        result = new Stdin(List.of(), true, null, true);
                    } else {
                        Sensitive.checkRead(a, target, scope, r.span(), "reads");
                        result = new Stdin(List.of(), a.downloads(target), null, true);
                    }
                }
                case ">&", "<&", ">&-", "<&-" -> {
                    String t = target.plain();
                    if (!(t.equals("-") || t.chars().allMatch(Character::isDigit) && !t.isEmpty() && target.isLiteral())) {
                        write(a, target, scope, r.span());
                    }
                }
                default -> write(a, target, scope, r.span());
            }
        }
        return result;
    }

    /** Whether the program runs what it reads as code (a shell or an interpreter). */
    static boolean isCodeReader(Analyzer a, String program) {
        return a.policy.shells.containsKey(program) || a.policy.interpreter(program) != null
                || program.equals("eval") || program.equals("source") || program.equals(".");
    }

    static void write(Analyzer a, Field target, Scope scope, Span span) {
        if (target.hasUnknown()) {
            a.add(Checks.WRITES_FILE, Tier.ASK, "writes to a file whose name is computed at run time ("
                    + target.display() + ")", span);
            return;
        }
        String text = target.plain();
        if (text.startsWith("/dev/tcp/") || text.startsWith("/dev/udp/")) {
            a.add(Checks.NETWORK_REDIRECT, Tier.ASK, "sends output over the network (" + text + ")", span);
            return;
        }
        for (Path cwd : cwds(scope)) {
            String path = ShellPaths.canonical(text, cwd);
            if (a.policy.paths("harmless-outputs").contains(path, home(scope))) {
                return;
            }
            if (destructive(a, "device-write", "devices", path, scope, span)
                    || destructive(a, "sysrq-write", "sysrq", path, scope, span)) {
                return;
            }
        }
        a.add(Checks.WRITES_FILE, Tier.ASK, "writes to " + target.display(), span);
    }

    /** Reports a write into a destructive path set through its detector rule; true if it was one. */
    static boolean destructive(Analyzer a, String detector, String set, String path, Scope scope, Span span) {
        if (!a.policy.paths(set).contains(path, home(scope))) {
            return false;
        }
        Rule rule = a.policy.detectors.get(detector);
        if (rule != null) {
            a.add(rule.id(), rule.tier(), rule.reason() + " (" + path + ")", span);
        } else {
            a.add(Checks.WRITES_FILE, Tier.ASK, "writes to " + path, span);
        }
        return true;
    }

    static List<Path> cwds(Scope scope) {
        return scope.cwds.isEmpty() ? List.of(Path.of("/")) : scope.cwds;
    }

    public static String home(Scope scope) {
        Field h = scope.vars.get("HOME");
        return h != null && h.isLiteral() ? h.text() : null;
    }
}
