package io.shellgate.judge.internal.analysis.nested;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.policy.CompiledPolicy;
import io.shellgate.judge.internal.analysis.walk.Analyzer;
import io.shellgate.judge.internal.analysis.walk.Assignments;
import io.shellgate.judge.internal.analysis.walk.Detectors;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.NestedCode;
import io.shellgate.judge.internal.analysis.walk.PosixAssignments;
import io.shellgate.judge.internal.analysis.walk.ReadOnly;
import io.shellgate.judge.internal.analysis.walk.Sensitive;
import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Word;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Commands that run code given to them: shells ({@code bash -c}), interpreters ({@code python -c}),
 * {@code eval}, {@code source}, {@code watch}, {@code parallel}. Code whose text is known is judged
 * as what it is; code that is not known is never allowed, and code that comes from the network is
 * refused.
 */
public final class Special {

    private Special() {}

    /** Handles the invocation if it is one of these commands; returns whether it did. */
    public static boolean handle(Analyzer a, Invocation inv, String program, ReadOnly.Outcome outcome) {
        String dialect = a.policy.shells.get(program);
        if (dialect != null) {
            Shells.handle(a, inv, program, dialect);
            return true;
        }
        CompiledPolicy.InterpreterSpec interpreter = a.policy.interpreter(program);
        if (interpreter != null) {
            Interpreters.handle(a, inv, program, interpreter);
            return true;
        }
        List<Field> args = inv.argv.subList(1, inv.argv.size());
        switch (program) {
            case "eval" -> {
                Scope inner = inv.scope.deeper();
                PosixAssignments.Saved saved = PosixAssignments.enter(a, inv, inner);
                NestedCode.code(a, inv, NestedCode.join(args), inv.scope.dialect, inner, "eval");
                inv.scope.adopt(inner);
                PosixAssignments.leave(inv.scope, saved);
                return true;
            }
            case "source", "." -> {
                if (!args.isEmpty() && a.downloads(args.getFirst())) {
                    Detectors.downloadToShell(a, inv.span(), program + " runs a script downloaded from the network");
                } else if (!sourced(a, inv, program, args)) {
                    a.add(Checks.SCRIPT_FILE, Tier.ASK, program + " runs the commands in "
                            + (args.isEmpty() ? "a file" : args.getFirst().display()) + " in this shell; shellgate does not read files",
                            inv.span());
                }
                return true;
            }
            case "exec" -> {
                // exec with only redirections: already judged as redirections
                return args.isEmpty();
            }
            case "watch" -> {
                watch(a, inv, args);
                return true;
            }
            case "printenv", "env" -> {
                return printsEnvironment(a, inv, program, args);
            }
            case "parallel" -> {
                a.add(Checks.DYNAMIC_CODE, Tier.ASK, "parallel builds and runs commands from its input", inv.span());
                List<Field> template = new ArrayList<>();
                for (Field f : args) {
                    if (f.plain().equals(":::") || f.plain().equals("::::")) {
                        break;
                    }
                    template.add(f);
                }
                if (!template.isEmpty()) {
                    NestedCode.code(a, inv, NestedCode.join(template), Dialect.SH, NestedCode.child(inv, Dialect.SH, null), "parallel");
                }
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /**
     * {@code . ./FILE} (or {@code source}) of a file named by a path: the file's text, read now, is judged as
     * code run in this shell. A name without a slash (looked up on PATH first), arguments, assignments
     * before the command, a sensitive file, or a file that is not a small regular text file is not judged
     * (false: it asks).
     */
    private static boolean sourced(Analyzer a, Invocation inv, String program, List<Field> args) {
        Path cwd = inv.scope.singleCwd();
        if (args.size() != 1 || !args.getFirst().isLiteral() || !args.getFirst().plain().contains("/") || cwd == null
                || !inv.prefix.isEmpty()
                || !a.policy.isBuiltin(inv.scope.dialect, program)) {
            return false;
        }
        if (Sensitive.checkRead(a, args.getFirst(), inv.scope, inv.span(), program + " runs (and its errors print)")) {
            return true;
        }
        Path file = cwd.resolve(args.getFirst().plain()).normalize();
        String text = a.host.scriptText(file);
        if (text == null) {
            return false;
        }
        Scope inner = inv.scope.deeper();
        PosixAssignments.Saved saved = PosixAssignments.enter(a, inv, inner);
        a.subscript(text, inv.scope.dialect, inner, inv.span());
        inv.scope.adopt(inner);
        PosixAssignments.leave(inv.scope, saved);
        return true;
    }

    /**
     * {@code printenv [NAME...]} and {@code env} without a command print variables of the environment, which
     * is known: allowed when no variable printed has a name that marks a secret. A name not known here, or an
     * environment not known, asks. Returns false for forms that are not only printing.
     */
    private static boolean printsEnvironment(Analyzer a, Invocation inv, String program, List<Field> args) {
        List<Field> names = new ArrayList<>();
        for (Field f : args) {
            String t = f.isLiteral() ? f.plain() : null;
            if (t != null && (t.equals("-0") || t.equals("--null"))) {
                continue;
            }
            if (program.equals("env") || t == null || t.startsWith("-") || !Assignments.isName(t)) {
                return false;
            }
            names.add(f);
        }
        if (names.isEmpty()) {
            if (!inv.scope.knowsAllVariables) {
                a.add(Checks.PRINTS_ENVIRONMENT, Tier.ASK, program + " prints the whole environment, which is not known here",
                        inv.span());
                return true;
            }
            Predicate<String> kept = filter(a, inv);
            for (Map.Entry<String, Field> e : inv.env.entrySet()) {
                if (e.getValue() != null && a.policy.isSecretVariable(e.getKey())
                        && (!e.getValue().isLiteral() || kept.test(e.getKey() + "=" + e.getValue().text()))) {
                    a.add(Checks.PRINTS_ENVIRONMENT, Tier.ASK, program + " prints the whole environment, with " + e.getKey()
                            + ", whose name marks a secret", inv.span());
                    return true;
                }
            }
        }
        for (Field n : names) {
            if (a.policy.isSecretVariable(n.plain())) {
                a.add(Checks.PRINTS_ENVIRONMENT, Tier.ASK, program + " prints " + n.plain() + ", whose name marks a secret",
                        inv.span());
                return true;
            }
        }
        a.add(Checks.PRINTS_ENVIRONMENT, Tier.ALLOW, program + " prints variables of the environment, none of whose names"
                + " marks a secret", inv.span());
        return true;
    }

    /**
     * Which lines of the output reach the user: all of them, unless the next stage of the pipeline is
     * {@code grep [-i] [-F] TEXT} with a fixed text ({@code env | grep -i java}), which keeps the lines holding it.
     */
    private static Predicate<String> filter(Analyzer a, Invocation inv) {
        if (a.stage != inv.node || !(a.nextStage instanceof Command.Simple next)
                || !next.assignments().isEmpty() || !next.redirects().isEmpty()) {
            return line -> true;
        }
        List<String> words = new ArrayList<>();
        for (Word w : next.words()) {
            if (w.parts().size() != 1 || !(w.parts().getFirst() instanceof Part.Literal l)) {
                return line -> true;
            }
            words.add(l.text());
        }
        if (words.isEmpty() || !words.getFirst().equals("grep")) {
            return line -> true;
        }
        boolean ignoreCase = false;
        String pattern = null;
        for (String w : words.subList(1, words.size())) {
            if (w.equals("-i") || w.equals("--ignore-case")) {
                ignoreCase = true;
            } else if (w.equals("-F") || w.equals("--fixed-strings")) {
                // the text is taken as it is
            } else if (pattern == null && !w.startsWith("-") && !w.isEmpty()) {
                pattern = w;
            } else {
                return line -> true;
            }
        }
        if (pattern == null || pattern.chars().anyMatch(c -> "\\.[]*^$+?(){}|".indexOf(c) >= 0)) {
            return line -> true;
        }
        String text = ignoreCase ? pattern.toLowerCase(Locale.ROOT) : pattern;
        boolean fold = ignoreCase;
        // a value over several lines is kept whole when any of its lines holds the text: only more is kept
        return line -> (fold ? line.toLowerCase(Locale.ROOT) : line).contains(text);
    }

    private static void watch(Analyzer a, Invocation inv, List<Field> args) {
        int i = 0;
        while (i < args.size()) {
            String t = args.get(i).plain();
            if (t.equals("-n") || t.equals("--interval") || t.equals("-q") || t.equals("--equexit")) {
                i += 2;
            } else if (t.startsWith("-") && t.length() > 1) {
                i++;
            } else {
                break;
            }
        }
        if (i >= args.size()) {
            a.add(Checks.NOT_READ_ONLY, Tier.ASK, "watch without a command", inv.span());
            return;
        }
        // watch hands its arguments, joined by spaces, to sh -c
        NestedCode.code(a, inv, NestedCode.join(args.subList(i, args.size())), Dialect.SH, NestedCode.child(inv, Dialect.SH, null), "watch");
    }
}
