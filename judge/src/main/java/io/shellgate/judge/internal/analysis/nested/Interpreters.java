package io.shellgate.judge.internal.analysis.nested;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Findings;
import io.shellgate.judge.internal.analysis.model.ShellPaths;
import io.shellgate.judge.internal.analysis.policy.CompiledPolicy;
import io.shellgate.judge.internal.analysis.walk.Analyzer;
import io.shellgate.judge.internal.analysis.walk.Detectors;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.NestedCode;
import io.shellgate.judge.internal.analysis.walk.Redirects;
import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.Rule;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Language interpreters. Inline code ({@code python -c}) is never allowed; its string literals are
 * judged as shell commands and deletion calls on critical paths are found, so that obviously
 * catastrophic code is refused rather than asked about.
 */
final class Interpreters {

    private static final Set<String> DELETE_CALLS = Set.of("rmtree", "rm_rf", "rm_r", "rmSync", "rmdirSync", "rmdir",
            "remove", "removedirs", "unlink", "unlinkSync", "delete", "deleteRecursively", "remove_dir_all", "RemoveAll",
            "rimraf");

    private Interpreters() {}

    static void handle(Analyzer a, Invocation inv, String program, CompiledPolicy.InterpreterSpec spec) {
        List<Field> args = inv.argv.subList(1, inv.argv.size());
        for (int i = 0; i < args.size(); i++) {
            Field f = args.get(i);
            String t = f.plain();
            Field code = null;
            for (OptionSpec o : spec.interpreter().codeOptions()) {
                String name = o.name();
                if (t.equals(name) && i + 1 < args.size()) {
                    code = args.get(i + 1);
                } else if (name.startsWith("--") && t.startsWith(name + "=")) {
                    code = Field.literal(t.substring(name.length() + 1));
                } else if (!name.startsWith("--") && !t.startsWith("--") && t.startsWith("-") && t.length() > 2
                        && t.indexOf(name.charAt(1)) > 0) {
                    // a bundle such as python -Ic CODE, or an attached value such as perl -eCODE
                    int at = t.indexOf(name.charAt(1));
                    code = at == t.length() - 1 ? (i + 1 < args.size() ? args.get(i + 1) : null) : Field.literal(t.substring(at + 1));
                }
                if (code != null) {
                    break;
                }
            }
            if (code != null) {
                inline(a, inv, program, code);
                return;
            }
            if (t.equals("-m")) {
                a.add(Checks.SCRIPT_FILE, Tier.ASK, program + " -m runs the module "
                        + (i + 1 < args.size() ? args.get(i + 1).display() : "") + ", which shellgate does not read", inv.span());
                return;
            }
            if (!t.startsWith("-") || !f.isLiteral() || t.equals("-")) {
                if (t.equals("-")) {
                    break;
                }
                if (a.downloads(f)) {
                    Detectors.downloadToShell(a, inv.span(), program + " runs a script downloaded from the network");
                } else {
                    a.add(Checks.SCRIPT_FILE, Tier.ASK, program + " runs the script " + f.display()
                            + ", which shellgate does not read", inv.span());
                }
                return;
            }
        }
        Shells.stdin(a, inv, program, null);
    }

    private static void inline(Analyzer a, Invocation inv, String program, Field code) {
        if (a.downloads(code)) {
            Detectors.downloadToShell(a, inv.span(), program + " runs code downloaded from the network");
            return;
        }
        a.add(Checks.INLINE_CODE, Tier.ASK, program + " runs inline code, which shellgate does not judge beyond its shell commands",
                inv.span());
        if (!code.isLiteral()) {
            return;
        }
        String text = code.plain();
        List<String> strings = strings(text);
        boolean deletes = false;
        for (String call : DELETE_CALLS) {
            if (text.contains(call)) {
                deletes = true;
                break;
            }
        }
        for (String s : strings) {
            if (deletes && critical(a, inv, s)) {
                Rule rule = a.policy.commandRules.stream().map(r -> r.rule).filter(r -> r.id().equals("rm-recursive-critical"))
                        .findFirst().orElse(null);
                a.add(rule == null ? Checks.INLINE_CODE : rule.id(), rule == null ? Tier.ASK : rule.tier(),
                        program + " code deletes " + s + ", the root, the home directory or a system directory", inv.span());
            }
            if (s.indexOf(' ') > 0 || s.contains("|")) {
                // strings that look like shell commands (os.system, subprocess, exec) are judged as such;
                // only their denials count, the inline code already asks
                Findings own = new Findings();
                Analyzer inner = new Analyzer(a.policy, a.host, own, a.parser, a.budget, a.gateSecrets, a.extensions);
                inner.subscript(s, Dialect.BASH, NestedCode.child(inv, Dialect.BASH, null).deeper(), inv.span());
                for (var r : own.reasons) {
                    if (r.tier() == Tier.DENY) {
                        a.add(r.rule(), r.tier(), r.message() + " (inside " + program + " code)", inv.span());
                    }
                }
            }
        }
    }

    private static boolean critical(Analyzer a, Invocation inv, String s) {
        String expanded = s.startsWith("~") ? (Redirects.home(inv.scope) == null ? s : Redirects.home(inv.scope) + s.substring(1)) : s;
        if (!expanded.startsWith("/")) {
            return false;
        }
        return a.policy.paths("critical").contains(ShellPaths.canonical(expanded, null), Redirects.home(inv.scope));
    }

    /** The contents of the quoted strings in source code, for any of the usual quote styles. */
    static List<String> strings(String code) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < code.length(); i++) {
            char q = code.charAt(i);
            if (q != '"' && q != '\'' && q != '`') {
                continue;
            }
            StringBuilder sb = new StringBuilder();
            int j = i + 1;
            for (; j < code.length() && code.charAt(j) != q; j++) {
                if (code.charAt(j) == '\\' && j + 1 < code.length()) {
                    j++;
                }
                sb.append(code.charAt(j));
            }
            out.add(sb.toString());
            i = j;
        }
        return out;
    }
}
