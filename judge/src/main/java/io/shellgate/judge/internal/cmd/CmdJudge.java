package io.shellgate.judge.internal.cmd;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.judge.internal.windows.WindowsHost;
import io.shellgate.judge.internal.windows.WindowsPaths;
import io.shellgate.judge.internal.windows.WindowsReads;
import io.shellgate.judge.internal.windows.WindowsShells;
import io.shellgate.rules.Tier;
import java.util.List;
import java.util.Locale;

/**
 * Judges a cmd line: tokenises and parses it, then judges every command it can run, in order,
 * keeping the working directory where {@code cd} makes it known. Whatever it cannot parse or
 * follow asks.
 */
public final class CmdJudge {

    final WindowsHost host;
    final String text;
    /** The working directory, forward slashes; null once a cd to somewhere unknown ran. */
    String cwd;
    /** The variables of the for loops around the command being judged ({@code %i}). */
    final java.util.Set<String> loopVariables = new java.util.HashSet<>();
    private boolean budgetSpent;
    private final CmdCommands commands;

    private CmdJudge(WindowsHost host, String text) {
        this.host = host;
        this.text = text;
        this.cwd = host.cwd();
        this.commands = new CmdCommands(this);
    }

    /** Judges the cmd line {@code code} into {@code host}. */
    public static void judge(String code, WindowsHost host) {
        int odd = WindowsChecks.unusualCharacter(code);
        if (odd >= 0) {
            host.report(WindowsChecks.UNUSUAL_CHARACTERS, Tier.ASK, "the line contains a control, format or private-use"
                    + " character (U+" + String.format("%04X", (int) code.charAt(odd)) + "), which cmd may not read as"
                    + " shellgate does", new Span(odd, odd + 1));
            return;
        }
        secrets(code, host);
        CmdAst.Node root;
        try {
            root = CmdParser.parse(code, CmdTokenizer.tokenize(code, host.env()));
        } catch (CmdSyntaxException e) {
            host.report(WindowsChecks.PARSE_ERROR, Tier.ASK, "the cmd line does not parse (" + e.getMessage()
                    + "), so shellgate cannot tell what it would run", e.span);
            return;
        }
        new CmdJudge(host, code).node(root, false);
    }

    /**
     * Asks for every {@code %NAME%}, {@code %NAME:~0,4%}, {@code %NAME:a=b%} and {@code !NAME!}
     * whose name marks a secret. cmd expands them anywhere in the line, quotes included, before it
     * parses it; every text between two {@code %} (or {@code !}) is tried, as an undefined name
     * makes cmd go on from the second one.
     */
    private static void secrets(String code, WindowsHost host) {
        for (char mark : new char[] {'%', '!'}) {
            int open = code.indexOf(mark);
            while (open >= 0) {
                int close = code.indexOf(mark, open + 1);
                if (close < 0) {
                    break;
                }
                String inside = code.substring(open + 1, close);
                int colon = inside.indexOf(':');
                String name = (colon >= 0 ? inside.substring(0, colon) : inside).replace("^", "");
                if (!name.isBlank() && host.secretVariable(name.strip())) {
                    host.report(WindowsChecks.SECRET_VARIABLE, Tier.ASK, "expands the environment variable " + name.strip()
                            + ", whose name marks a secret", new Span(open, close + 1));
                }
                open = close;
            }
        }
    }

    /** Judges a node; returns whether its output may come from the network. */
    boolean node(CmdAst.Node n, boolean upstream) {
        if (budgetSpent || host.pastDeadline()) {
            if (!budgetSpent) {
                host.report(WindowsChecks.TIME_BUDGET, Tier.ASK, "judging the line took longer than the time budget", n.span());
            }
            budgetSpent = true;
            return false;
        }
        return switch (n) {
            case CmdAst.Simple s -> commands.simple(s, upstream);
            case CmdAst.Sequence s -> {
                boolean any = false;
                for (CmdAst.Node item : s.items()) {
                    any |= node(item, upstream);
                }
                yield any;
            }
            case CmdAst.Pipeline p -> {
                boolean downloads = upstream;
                for (CmdAst.Node stage : p.stages()) {
                    downloads = node(stage, downloads);
                }
                yield downloads;
            }
            case CmdAst.Group g -> {
                commands.reads.redirects(g.redirects());
                yield node(g.body(), upstream);
            }
            case CmdAst.If i -> {
                for (int k = 0; k + 1 < i.condition().size(); k++) {
                    if (i.condition().get(k).isWord("exist")) {
                        // if exist looks the path up: a share learns the user's credentials
                        commands.reads.resolve(commands.value(i.condition().get(k + 1)), i.span(), "if exist");
                    }
                }
                boolean moves = moves(i);
                if (moves) {
                    cwd = null;
                }
                boolean any = node(i.then(), upstream);
                if (i.otherwise() != null) {
                    any |= node(i.otherwise(), upstream);
                }
                if (moves) {
                    // whether the branch ran is not known: nor is the directory after it
                    cwd = null;
                }
                yield any;
            }
            case CmdAst.For f -> forLoop(f, upstream);
        };
    }

    private boolean forLoop(CmdAst.For f, boolean upstream) {
        boolean fileSet = f.options().stream().anyMatch(o -> o.equalsIgnoreCase("/f"));
        boolean backq = f.options().stream().anyMatch(o -> o.toLowerCase(Locale.ROOT).contains("usebackq"));
        String set = f.set().strip();
        char quote = backq ? '`' : '\'';
        if (fileSet && set.length() >= 2 && set.charAt(0) == quote && set.charAt(set.length() - 1) == quote) {
            host.at(cwd).nested(set.substring(1, set.length() - 1), Dialect.CMD, false, f.setSpan());
        } else if (fileSet && !(set.startsWith("\"") && !backq)) {
            // with usebackq a quoted name is one file, spaces and all
            for (String file : quotedWords(set)) {
                commands.reads.path(file, f.setSpan(), "for /f");
            }
        }
        if (!fileSet) {
            // a plain, /d or /r loop lists the directories its set and /r name: shares are touched
            for (int k = 0; k < f.options().size(); k++) {
                if (f.options().get(k).equalsIgnoreCase("/r") && k + 1 < f.options().size()) {
                    commands.reads.resolve(f.options().get(k + 1), f.setSpan(), "for /r");
                }
            }
            String expanded = CmdTokenizer.programLine(set, host.env());
            for (String item : expanded == null ? java.util.Collections.<String>singletonList(null)
                    : WindowsPaths.split(expanded.replace("\"", ""), ' ')) {
                if (item == null || !item.isEmpty()) {
                    commands.reads.resolve(item, f.setSpan(), "for");
                }
            }
        }
        boolean moves = moves(f.body());
        if (moves) {
            cwd = null;
        }
        // the loop variable's values are not known here: words using it are unknown
        String variable = f.variable().startsWith("%%") ? f.variable().substring(1) : f.variable();
        loopVariables.add(variable);
        try {
            return node(f.body(), upstream);
        } finally {
            loopVariables.remove(variable);
            if (moves) {
                cwd = null;
            }
        }
    }

    /** The words of a for /f file set: split at spaces outside double quotes, the quotes dropped. */
    static java.util.List<String> quotedWords(String set) {
        java.util.List<String> out = new java.util.ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        for (char c : set.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if ((c == ' ' || c == '\t') && !quoted) {
                if (!word.isEmpty()) {
                    out.add(word.toString());
                    word.setLength(0);
                }
            } else {
                word.append(c);
            }
        }
        if (!word.isEmpty()) {
            out.add(word.toString());
        }
        return out;
    }

    /** Whether a node may change the working directory ({@code cd}, {@code pushd}, {@code popd}, {@code call}). */
    static boolean moves(CmdAst.Node n) {
        return switch (n) {
            case CmdAst.Simple s -> !s.words().isEmpty() && s.words().getFirst().known()
                    && java.util.Set.of("cd", "chdir", "pushd", "popd", "call").contains(commandWord(s.words().getFirst().text()));
            case CmdAst.Sequence s -> s.items().stream().anyMatch(CmdJudge::moves);
            case CmdAst.Pipeline p -> false;
            case CmdAst.Group g -> moves(g.body());
            case CmdAst.If i -> moves(i.then()) || i.otherwise() != null && moves(i.otherwise());
            case CmdAst.For f -> moves(f.body());
        };
    }

    /** The command word of a first word, lower case: {@code @CD..} is {@code cd}. */
    private static String commandWord(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        w = w.startsWith("@") ? w.substring(1) : w;
        for (int i = 0; i < w.length(); i++) {
            if ("/.\\:+".indexOf(w.charAt(i)) >= 0) {
                return w.substring(0, i);
            }
        }
        return w;
    }

    /** Where a {@code cd} to {@code path} leads from the working directory (case kept), or null when not known. */
    String location(String path) {
        return WindowsReads.location(host, path, cwd, false);
    }

    void run(String base, List<String> args, String rest, boolean upstream, Span span) {
        WindowsShells.run(host.at(cwd), base, args, rest, upstream, span);
    }
}
