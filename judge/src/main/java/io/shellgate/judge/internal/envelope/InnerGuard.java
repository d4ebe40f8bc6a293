package io.shellgate.judge.internal.envelope;

import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.Word;
import java.util.List;
import java.util.Set;

/**
 * Checks that an inner command cannot reach the envelope parts that run after it in the same
 * shell. Judged on its own, such a command looks harmless; in its envelope it would redirect the
 * envelope's own write: Gemini CLI's EXIT trap writes {@code jobs -p} to {@code $_bgpids_file},
 * and Claude Code runs {@code pwd -P} after the {@code eval}. A command that fails the check is
 * not unwrapped, so the whole text is judged as usual.
 */
final class InnerGuard {

    /**
     * The variable Gemini CLI's trap writes to, and bash's table of aliases, through which a
     * command could make the trap's {@code jobs} (parsed only when the trap runs) an alias.
     */
    private static final List<String> PROTECTED = List.of("_bgpids_file", "BASH_ALIASES");

    private static final Set<String> PREFIXES = Set.of("builtin", "command", "time", "-p", "--");
    private static final Set<String> DECLARE = Set.of("declare", "typeset", "local", "export", "readonly");
    private static final Set<String> NAMES_ONLY = Set.of("read", "mapfile", "readarray", "getopts", "wait", "let");
    /** Run code from text or change what a name runs, in ways a check of the words cannot follow. */
    private static final Set<String> NEVER = Set.of("eval", "source", ".", "alias", "enable", "coproc");

    private InnerGuard() {}

    /**
     * For Claude Code's {@code eval '…'}: the command parses completely and does not use
     * {@code enable}, which could make the envelope's {@code pwd} a program of the command's choosing.
     */
    static boolean afterEval(String inner) {
        Script s = Parsing.clean(inner);
        return s != null && Walk.of(s.body()).commands().stream().noneMatch(c -> "enable".equals(name(c)));
    }

    /**
     * For Gemini CLI's subshell: the command parses completely, ends where its text ends, never
     * names {@code _bgpids_file} or {@code BASH_ALIASES}, and sets no variable whose name is
     * computed at run time.
     */
    static boolean insideTrap(String inner) {
        if (inner.isBlank() || inner.endsWith("\\") || mentionsProtected(inner)) {
            return false;
        }
        // parsed with the newline that follows it in the envelope (tree-sitter takes a final escaped space as an error)
        Script s = Parsing.clean(inner + "\n");
        if (s == null) {
            return false;
        }
        Walk.Found f = Walk.of(s.body());
        if (f.names().stream().anyMatch(InnerGuard::mentionsProtected)
                || f.words().stream().anyMatch(w -> mentionsProtected(literalText(w)))) {
            return false;
        }
        return f.commands().stream().allMatch(InnerGuard::setsOnlyNamedVariables);
    }

    private static boolean setsOnlyNamedVariables(Command c) {
        if (!(c instanceof Command.Simple s) || s.words().isEmpty()) {
            return true;
        }
        List<Word> words = s.words();
        int i = 0;
        while (i < words.size() - 1 && PREFIXES.contains(words.get(i).literal())) {
            i++;
        }
        String name = words.get(i).literal();
        if (name == null) {
            return false;
        }
        List<Word> args = words.subList(i + 1, words.size());
        if (NEVER.contains(name)) {
            return false;
        }
        if (name.equals("trap")) {
            return args.stream().allMatch(a -> "-p".equals(a.literal()) || "-l".equals(a.literal()));
        }
        if (NAMES_ONLY.contains(name)) {
            return args.stream().allMatch(a -> a.literal() != null);
        }
        if (name.equals("printf")) {
            return args.isEmpty() || args.getFirst().literal() != null
                    && args.stream().map(Word::literal).noneMatch(a -> a != null && a.startsWith("-v"));
        }
        if (DECLARE.contains(name)) {
            return args.stream().allMatch(InnerGuard::namesItsVariable);
        }
        return true;
    }

    /** A declaration argument whose variable name is written out, and that makes no name reference. */
    private static boolean namesItsVariable(Word w) {
        String lit = w.literal();
        if (lit != null) {
            boolean option = lit.startsWith("-") || lit.startsWith("+");
            return !(option && lit.indexOf('n') > 0);
        }
        return w.parts().getFirst() instanceof Part.Literal l && l.text().indexOf('=') > 0;
    }

    private static String name(Command c) {
        if (!(c instanceof Command.Simple s)) {
            return null;
        }
        for (Word w : s.words()) {
            String lit = w.literal();
            if (lit == null || !PREFIXES.contains(lit)) {
                return lit;
            }
        }
        return null;
    }

    private static boolean mentionsProtected(String text) {
        return PROTECTED.stream().anyMatch(text::contains);
    }

    /** The literal parts of a word run together, expansions left out. */
    private static String literalText(Word w) {
        StringBuilder sb = new StringBuilder();
        for (Part p : w.parts()) {
            if (p instanceof Part.Literal l) {
                sb.append(l.text());
            }
        }
        return sb.toString();
    }
}
