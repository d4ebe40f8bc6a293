package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.rules.Tier;

/**
 * Arithmetic as bash and zsh evaluate it ({@code $((...))}, {@code ((...))}, {@code let},
 * subscripts of indexed arrays, substring offsets, {@code [[ a -eq b ]]}, integer variables). It is
 * code, not text: a name in an expression is read and its value evaluated as an expression in
 * turn, and a subscript found there is expanded, so {@code x='a[$(id)]'; echo $((x))} runs id.
 * An expression is allowed only when every value it reaches is known and plain arithmetic;
 * a value that is not known asks, and text with substitutions in it asks and is judged as code.
 */
public final class Arithmetic {

    /** How deeply values naming other variables are followed before the judge asks. */
    private static final int MAX_DEPTH = 8;
    private static final String OPERATORS = "+-*/%<>=!&^|~?:,();";

    private Arithmetic() {}

    /** An expression in the line, after the shell's expansions (unknown parts are holes). */
    public static void check(Analyzer a, Field expression, Scope scope, Span span) {
        check(a, plain(expression.text()), scope, span, 0);
    }

    /** The subscript of an array element the line reads or assigns: arithmetic unless the array is associative. */
    public static void subscript(Analyzer a, String array, Field subscript, Scope scope, Span span) {
        String text = plain(subscript.text());
        if (scope.options.associative.contains(array)) {
            // a string key, already expanded; but text with a substitution in it is expanded again
            if (text.indexOf('$') >= 0 || text.indexOf('`') >= 0) {
                code(a, text, scope, span);
            }
            return;
        }
        check(a, text, scope, span, 1);
    }

    /**
     * Text the shell reads as a variable's name at run time ({@code test -v}, {@code [[ -v ]]}):
     * a subscript in it is evaluated; a name computed at run time may carry one.
     */
    public static void name(Analyzer a, Field name, Scope scope, Span span) {
        String t = plain(name.text());
        int open = t.indexOf('[');
        String base = open < 0 ? t : t.substring(0, open);
        if (base.indexOf(Field.HOLE) >= 0) {
            a.add(Checks.DYNAMIC_CODE, Tier.ASK, "tests a variable whose name is computed at run time (" + name.display()
                    + "); a name with a subscript, such as a[$(cmd)], runs the command", span);
        } else if (open > 0 && t.endsWith("]")) {
            subscript(a, base, new Field(t.substring(open + 1, t.length() - 1), name.producers(), false, true), scope, span);
        }
    }

    private static void check(Analyzer a, String text, Scope scope, Span span, int depth) {
        a.budget.spend(1 + text.length() / 8);
        if (depth > MAX_DEPTH) {
            a.add(Checks.DYNAMIC_CODE, Tier.ASK, "arithmetic follows variables naming variables more than " + MAX_DEPTH
                    + " levels deep", span);
            return;
        }
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == Field.NUMBER) {
                i++;
            } else if (c == Field.HOLE) {
                a.add(Checks.DYNAMIC_CODE, Tier.ASK, "arithmetic evaluates text computed at run time (" + display(text)
                        + "); a value that names an array element, such as a[$(cmd)], runs the command", span);
                return;
            } else if (c >= '0' && c <= '9' || c == '.' && i + 1 < n && Character.isDigit(text.charAt(i + 1))) {
                i = numberEnd(text, i);
            } else if (Character.isLetter(c) || c == '_') {
                i = name(a, text, i, scope, span, depth);
                if (i < 0) {
                    return;
                }
            } else if (c == '$' || c == '`') {
                code(a, text, scope, span);
                return;
            } else if (OPERATORS.indexOf(c) >= 0) {
                i++;
            } else {
                a.add(Checks.UNKNOWN_SYNTAX, Tier.ASK, "arithmetic that shellgate cannot read (" + display(text) + ")", span);
                return;
            }
        }
    }

    /** A name at {@code start}, with its subscript: read, or assigned. Returns where it ends, or -1 when it asked. */
    private static int name(Analyzer a, String text, int start, Scope scope, Span span, int depth) {
        int n = text.length();
        int end = start;
        while (end < n && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
            end++;
        }
        String name = text.substring(start, end);
        int k = skipBlanks(text, end);
        String subscript = null;
        if (k < n && text.charAt(k) == '[') {
            int close = closing(text, k);
            if (close < 0) {
                a.add(Checks.UNKNOWN_SYNTAX, Tier.ASK, "arithmetic with an unclosed subscript (" + display(text) + ")", span);
                return -1;
            }
            subscript = text.substring(k + 1, close);
            k = skipBlanks(text, close + 1);
        }
        if (subscript != null) {
            if (scope.options.associative.contains(name)) {
                if (subscript.indexOf('$') >= 0 || subscript.indexOf('`') >= 0) {
                    code(a, subscript, scope, span);
                }
            } else {
                check(a, subscript, scope, span, depth + 1);
            }
        }
        String after = text.substring(k, Math.min(n, k + 3));
        boolean plainAssignment = after.startsWith("=") && !after.startsWith("==");
        boolean assigns = plainAssignment || after.startsWith("<<=") || after.startsWith(">>=") || after.startsWith("**=")
                || after.length() >= 2 && "+-*/%&|^".indexOf(after.charAt(0)) >= 0 && after.charAt(1) == '='
                || after.startsWith("++") || after.startsWith("--") || before(text, start).endsWith("++")
                || before(text, start).endsWith("--");
        if (assigns) {
            Assignments.assign(a, scope, name, subscript == null ? null : Field.literal(subscript),
                    new Field(String.valueOf(Field.NUMBER), java.util.List.of(), false, true), false, span, "arithmetic sets");
        }
        if (!plainAssignment && subscript == null) {
            read(a, name, scope, span, depth);
        }
        return k;
    }

    /** A variable read in arithmetic: its value is evaluated as an expression in turn. */
    private static void read(Analyzer a, String name, Scope scope, Span span, int depth) {
        Field value = scope.lookup(name);
        if (value == null) {
            return;
        }
        String t = plain(value.text()).strip();
        if (t.isEmpty() || isNumber(t)) {
            return;
        }
        if (value.hasHoles()) {
            a.add(Checks.DYNAMIC_CODE, Tier.ASK, "arithmetic reads " + name + ", whose value is not known here; a value"
                    + " that names an array element, such as a[$(cmd)], runs the command", span);
            return;
        }
        check(a, t, scope, span, depth + 1);
    }

    /** Text that is expanded when it is evaluated: its substitutions run. Asks, and judges them (a deletion in it is refused). */
    static void code(Analyzer a, String text, Scope scope, Span span) {
        a.add(Checks.DYNAMIC_CODE, Tier.ASK, "arithmetic or a subscript evaluates " + display(text)
                + ", which runs the commands substituted in it", span);
        if (text.indexOf(Field.HOLE) < 0) {
            a.subscript(": " + text, scope.dialect, scope.deeper(), span);
        }
    }

    public static boolean isNumber(String t) {
        int i = t.startsWith("-") || t.startsWith("+") ? 1 : 0;
        if (i >= t.length()) {
            return false;
        }
        for (; i < t.length(); i++) {
            if (!Character.isDigit(t.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Numbers: 42, 0x2a, 052, 8#52, 64#_@, and zsh's 4.2 and 1e3. */
    private static int numberEnd(String text, int i) {
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '_' || c == '@' || c == '#' || c == '.') {
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    private static int closing(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static int skipBlanks(String text, int i) {
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t' || text.charAt(i) == '\n')) {
            i++;
        }
        return i;
    }

    private static String before(String text, int i) {
        int j = i;
        while (j > 0 && (text.charAt(j - 1) == ' ' || text.charAt(j - 1) == '\t')) {
            j--;
        }
        return text.substring(Math.max(0, j - 2), j);
    }

    /** The text with pattern markers as the characters they stand for (arithmetic has no file name patterns). */
    private static String plain(String text) {
        return new Field(text, java.util.List.of(), false, false).textWithoutPatterns();
    }

    private static String display(String text) {
        return Field.literal(text).display();
    }
}
