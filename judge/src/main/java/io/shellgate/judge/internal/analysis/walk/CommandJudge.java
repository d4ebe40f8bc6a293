package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.internal.analysis.host.HostView;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.model.Stdin;
import io.shellgate.judge.internal.syntax.Assignment;
import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Word;
import io.shellgate.rules.Tier;
import io.shellgate.rules.Wrapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Judges one simple command: assignments, wrappers, what the name resolves to, deny and ask
 * rules, the read-only list, and the commands that run code (shells, interpreters, eval).
 */
public final class CommandJudge {

    private static final int MAX_WRAPPERS = 16;

    private final Analyzer a;

    CommandJudge(Analyzer analyzer) {
        this.a = analyzer;
    }

    boolean judge(Command.Simple node, Scope scope, Stdin stdin) {
        a.budget.spend(16);
        int mark = a.findings.mark();
        if (scope.dialect == io.shellgate.judge.Dialect.ZSH) {
            Zsh.check(a, node);
        }
        List<Field> argv = new ArrayList<>();
        int nameFields = -1;
        for (Word w : node.words()) {
            argv.addAll(a.expander.expand(w, scope));
            if (nameFields < 0) {
                nameFields = argv.size();
            }
        }
        String program = argv.isEmpty() || !argv.getFirst().isLiteral() ? null : basename(argv.getFirst().plain());
        if (program != null && a.policy.dataCommands.contains(program)) {
            for (int i = 1; i < node.words().size(); i++) {
                if (quoted(node.words().get(i))) {
                    a.data(node.words().get(i).span());
                }
            }
        }
        Stdin in = a.redirects(node.redirects(), scope, stdin, program);
        boolean computedName = !node.words().isEmpty() && computed(node.words().getFirst());
        if (argv.isEmpty() && computedName) {
            a.add(Checks.DYNAMIC_COMMAND, Tier.ASK, "the command name is computed at run time ("
                    + node.words().getFirst().span().of(a.text()) + " expands to nothing here, but may not where it runs)", node.span());
            return false;
        }
        if (argv.isEmpty()) {
            for (Assignment as : node.assignments()) {
                Assignments.standalone(a, as, scope);
            }
            return false;
        }
        Map<String, Field> env = new HashMap<>();
        for (String name : scope.exported) {
            Field v = scope.vars.get(name);
            if (v != null) {
                env.put(name, v);
            }
        }
        // IFS= read -r line: IFS before read only says how read splits what it reads
        boolean read = program != null && (program.equals("read") || program.equals("mapfile") || program.equals("readarray"))
                && a.policy.isBuiltin(scope.dialect, program) && !argv.getFirst().plain().contains("/");
        // X=1 eval '...': which of them reach a program is judged where the text starts one
        boolean eval = PosixAssignments.beforeEval(a, scope, argv);
        List<String> prefix = new ArrayList<>();
        for (Assignment as : node.assignments()) {
            Field value = read && as.name().equals("IFS") && as.subscript() == null
                    ? a.expander.single(as.value(), scope) : Assignments.prefix(a, as, scope, node.span(), !eval);
            env.put(as.name(), value);
            if (as.subscript() == null) {
                prefix.add(as.name());
            }
        }
        if (scope.options.keyword) {
            keywordAssignments(node, scope, env);
        }
        Invocation inv = new Invocation(node, scope, in, argv, env);
        inv.prefix = prefix;
        inv.dynamicName = argv.getFirst().expanded() || computedName;
        inv.nameVanished = nameFields == 0;
        inv.anyVanished = argv.size() < node.words().size();
        boolean downloads = run(inv);
        if (program != null && !argv.getFirst().plain().contains("/")) {
            PosixAssignments.afterCommand(a, node, scope, program, env);
        }
        Tier tier = a.findings.tierSince(mark);
        if (!a.nestedText()) {
            a.findings.commands.add(new CommandInfo(inv.argv.stream().map(Field::display).toList(), inv.wrappers,
                    inv.resolved, tier, node.span(), scope.depth));
        }
        return downloads;
    }

    /**
     * After {@code set -k}, a word anywhere on the line that looks like an assignment goes to the
     * command's environment ({@code set -k; sh -c ls LD_PRELOAD=x}).
     */
    private void keywordAssignments(Command.Simple node, Scope scope, Map<String, Field> env) {
        for (int i = 1; i < node.words().size(); i++) {
            Word w = node.words().get(i);
            if (w.parts().isEmpty() || !(w.parts().getFirst() instanceof Part.Literal l) || l.quoted()) {
                continue;
            }
            int eq = l.text().indexOf('=');
            String name = eq > 0 ? l.text().substring(0, l.text().charAt(eq - 1) == '+' ? eq - 1 : eq) : "";
            if (Assignments.isName(name)) {
                Assignments.environment(a, scope, name, w.span());
                env.put(name, a.expander.single(w, scope));
            }
        }
    }

    /** Judges an argument vector a command runs ({@code xargs CMD}, {@code find -exec CMD}) like a simple command. */
    public void judgeArgv(Invocation parent, List<Field> argv) {
        if (argv.isEmpty()) {
            return;
        }
        Invocation inv = new Invocation(parent.node, parent.scope, Stdin.NONE, argv, new HashMap<>(parent.env));
        inv.dynamicName = argv.getFirst().expanded();
        int mark = a.findings.mark();
        run(inv);
        if (!a.nestedText()) {
            a.findings.commands.add(new CommandInfo(inv.argv.stream().map(Field::display).toList(), inv.wrappers,
                    inv.resolved, a.findings.tierSince(mark), parent.span(), parent.scope.depth + 1));
        }
    }

    /** Whether bash imports a function of this name from the environment (exported with export -f). */
    private static boolean importsFunction(Scope scope, String name) {
        if (scope.dialect != Dialect.BASH && scope.dialect != Dialect.SH) {
            return false;
        }
        return scope.exported.contains("BASH_FUNC_" + name + "%%") || scope.exported.contains("BASH_FUNC_" + name + "()");
    }

    /** Strips wrappers, then judges what is left; returns whether the output may come from the network. */
    private boolean run(Invocation inv) {
        for (int round = 0; round < MAX_WRAPPERS; round++) {
            Field name = inv.argv.getFirst();
            if (!name.isLiteral() || inv.dynamicName) {
                return dynamic(inv);
            }
            String base = basename(name.plain());
            if (!name.plain().contains("/") && !inv.skipFunctions && inv.scope.functions.contains(base)) {
                inv.resolved = CommandInfo.FUNCTION;
                PosixAssignments.programStarts(a, inv.scope, inv.span());
                Rules.check(a, inv, base);
                return false;
            }
            if (!name.plain().contains("/") && !inv.skipFunctions && importsFunction(inv.scope, base)) {
                inv.resolved = CommandInfo.FUNCTION;
                a.add(Checks.IMPORTED_FUNCTION, Tier.ASK, base + " is a shell function exported in the environment"
                        + " (BASH_FUNC_" + base + "%%); bash runs it instead of the program, and its body is not judged", inv.span());
                Rules.check(a, inv, base);
                return false;
            }
            Wrapper w = a.policy.wrappers.get(base);
            if (w == null) {
                break;
            }
            // timeout 5 ls is only as safe as the timeout that runs ls
            if (name.plain().contains("/") || !a.policy.isBuiltin(inv.scope.dialect, base)) {
                ReadOnly.trust(a, inv, base, resolve(inv, name.plain()), false);
            }
            if (!Wrappers.strip(a, inv, w, base)) {
                if (inv.anyVanished && inv.argv.size() <= 1 + w.operands()) {
                    a.add(Checks.DYNAMIC_COMMAND, Tier.ASK, base + " runs a command whose name is computed at run time"
                            + " (it expands to nothing here, but may not where it runs)", inv.span());
                    return true;
                }
                break;
            }
        }
        Field name = inv.argv.getFirst();
        if (!name.isLiteral()) {
            return dynamic(inv);
        }
        String text = name.plain();
        String base = basename(text);
        boolean builtin = !text.contains("/") && (a.policy.isBuiltin(inv.scope.dialect, base) || inv.builtinOnly);
        if (!builtin || !inv.wrappers.isEmpty() || PosixAssignments.STARTS.contains(base)) {
            PosixAssignments.programStarts(a, inv.scope, inv.span());
        }
        HostView.Resolution resolution = builtin ? null : resolve(inv, text);
        inv.resolved = builtin ? CommandInfo.BUILTIN : switch (resolution.kind()) {
            case FILE -> resolution.path().toString();
            case NOT_FOUND -> CommandInfo.NOT_FOUND;
            case UNKNOWN -> CommandInfo.UNKNOWN;
        };
        // case-insensitive file systems (macOS) run RM as rm: rules match in lower case
        Rules.check(a, inv, base.toLowerCase(java.util.Locale.ROOT));
        Detectors.simple(a, inv, base.toLowerCase(java.util.Locale.ROOT));
        ReadOnly.Outcome outcome = ReadOnly.check(a, inv, base, resolution, builtin);
        if (outcome == ReadOnly.Outcome.ACCEPTED) {
            return downloadsOut(inv, base);
        }
        if (a.extensions.commands().handle(a, inv, base, outcome) || !base.equals(base.toLowerCase(java.util.Locale.ROOT))
                && a.extensions.commands().handle(a, inv, base.toLowerCase(java.util.Locale.ROOT), outcome)) {
            // bash -c 'ls' is only as safe as the bash that runs it
            ReadOnly.trust(a, inv, base, resolution, builtin);
            return downloadsOut(inv, base);
        }
        if (outcome == ReadOnly.Outcome.NOT_LISTED) {
            a.add(Checks.NOT_READ_ONLY, Tier.ASK, base + " is not on the read-only list", inv.span());
        } else if (inv.unknownSubcommand) {
            a.add(Checks.NOT_READ_ONLY, Tier.ASK, base + " " + inv.argv.get(1).plain() + " is not on the read-only list", inv.span());
        } else if (inv.problems.stream().anyMatch(p -> p.contains("option"))) {
            a.add(Checks.OPTION_NOT_PERMITTED, Tier.ASK, String.join("; ", inv.problems.stream()
                    .filter(p -> p.contains("option")).distinct().toList()), inv.span());
        } else {
            boolean subcommands = a.policy.globalOptions.containsKey(base) || a.policy.readOnly.getOrDefault(base, List.of())
                    .stream().anyMatch(e -> e.commands().stream().anyMatch(c -> c.startsWith(base + " ")));
            String sub = subcommands && inv.argv.size() > 1 && inv.argv.get(1).isLiteral() ? " " + inv.argv.get(1).plain() : "";
            a.add(Checks.NOT_READ_ONLY, Tier.ASK, base + sub + " is not on the read-only list ("
                    + inv.problems.getFirst() + ")", inv.span());
        }
        // an ask about a program says whether it is the program its name suggests: a remembered
        // approval of "npm test" must not cover an npm planted first on PATH
        ReadOnly.trust(a, inv, base, resolution, builtin);
        return downloadsOut(inv, base);
    }

    private boolean downloadsOut(Invocation inv, String base) {
        if (a.policy.downloaders.contains(base)) {
            return true;
        }
        for (Field f : inv.argv) {
            if (a.downloads(f)) {
                return true;
            }
        }
        return inv.stdin.downloads() && passesInputThrough(base);
    }

    /** Filters that copy what they read to their output, so downloaded content stays downloaded. */
    private static boolean passesInputThrough(String base) {
        return switch (base) {
            case "cat", "tee", "base64", "base32", "xxd", "gunzip", "zcat", "gzip", "bzip2", "bunzip2", "xz", "unxz",
                 "zstd", "tr", "sed", "awk", "rev", "tac", "head", "tail", "sort", "uniq", "cut", "grep", "openssl",
                 "gpg", "dd", "iconv", "perl", "python", "python3", "jq" -> true;
            default -> false;
        };
    }

    /** A command whose name is computed at run time. */
    private boolean dynamic(Invocation inv) {
        Field name = inv.argv.getFirst();
        inv.resolved = CommandInfo.UNKNOWN;
        PosixAssignments.programStarts(a, inv.scope, inv.span());
        if (a.downloads(name)) {
            Detectors.downloadToShell(a, inv.span(), "runs the output of a download as a command");
        }
        String shown = inv.nameVanished ? inv.node.words().getFirst().span().of(a.text()) : name.display();
        a.add(Checks.DYNAMIC_COMMAND, Tier.ASK, "the command name (" + shown
                + ") is computed at run time, so shellgate cannot tell what it runs", inv.span());
        // The rest of the line may already prove a catastrophe: "${RM} -rf /".
        List<Field> args = inv.argv.subList(inv.nameVanished ? 0 : 1, inv.argv.size());
        if (!name.isLiteral() || inv.dynamicName) {
            Rules.checkNameless(a, inv, args);
            if (name.isLiteral() && !name.plain().isEmpty()) {
                Rules.check(a, inv, basename(name.plain()));
            }
        }
        // what an unknown command prints is unknown; a shell reading it asks (stdin-code)
        return false;
    }

    HostView.Resolution resolve(Invocation inv, String name) {
        Path cwd = inv.scope.singleCwd();
        if (cwd == null) {
            return HostView.Resolution.unknown("the working directory is not known");
        }
        return a.host.resolve(name, inv.path(), cwd);
    }

    public static String basename(String path) {
        int slash = path.lastIndexOf('/');
        return slash >= 0 && slash < path.length() - 1 ? path.substring(slash + 1) : path;
    }

    /**
     * Whether a command word is computed at run time: an expansion, or unquoted braces or file
     * name patterns ({@code l{s,}}, {@code *}).
     */
    private static boolean computed(Word w) {
        for (Part p : w.parts()) {
            if (!(p instanceof Part.Literal l)) {
                return true;
            }
            if (!l.quoted()) {
                String t = l.text();
                if (t.indexOf('*') >= 0 || t.indexOf('?') >= 0 || t.indexOf('[') >= 0
                        || t.indexOf('{') >= 0 && t.indexOf('}') > t.indexOf('{')) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean quoted(Word w) {
        for (Part p : w.parts()) {
            if (p instanceof Part.Literal l && l.quoted()) {
                return true;
            }
        }
        return false;
    }
}
