package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.Span;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A hand-written parser for the statement structure of PowerShell 5.1 and 7: statements,
 * pipelines, {@code &&}/{@code ||} chains (7 only), control flow, functions, commands with their
 * parameters, arguments and redirections. Expressions are {@link PsExpressions}'. It throws
 * {@link PsSyntaxException} on anything it does not understand, and on nesting past its budget.
 */
final class PsParser {

    /** The statements after which the next needs no separator: param( ) and a script block's named blocks. */
    private static final Set<String> NO_SEPARATOR = Set.of("param", "begin", "process", "end", "clean");

    static final int MAX_NESTING = 64;
    private static final Set<String> UNSUPPORTED = Set.of("class", "enum", "using", "data", "workflow", "configuration",
            "parallel", "sequence", "inlinescript", "dynamicparam");

    final PsScanner s;
    final PsExpressions expressions;
    final boolean windowsPowerShell;
    final List<Span> comments = new ArrayList<>();
    private int nesting;

    /** The statements of a script, and where its comments are. */
    record Result(List<PsAst.Statement> statements, List<Span> comments) {}

    private PsParser(String text, boolean windowsPowerShell) {
        this.s = new PsScanner(text, this);
        this.expressions = new PsExpressions(this);
        this.windowsPowerShell = windowsPowerShell;
    }

    /** @param windowsPowerShell true for 5.1, which has no {@code &&} and {@code ||} */
    static Result parse(String text, boolean windowsPowerShell) {
        PsParser p = new PsParser(text, windowsPowerShell);
        List<PsAst.Statement> statements = p.statements('\0');
        return new Result(statements, List.copyOf(p.comments));
    }

    void comment(Span span) {
        comments.add(span);
    }

    void enter() {
        if (++nesting > MAX_NESTING) {
            throw s.error("the script is nested more than " + MAX_NESTING + " levels deep");
        }
    }

    void leave() {
        nesting--;
    }

    /** Statements up to {@code terminator} (not consumed), or to the end for '\0'. */
    List<PsAst.Statement> statements(char terminator) {
        enter();
        List<PsAst.Statement> out = new ArrayList<>();
        while (true) {
            s.skip(true);
            if (s.peek() == ';') {
                s.pos++;
                continue;
            }
            if (s.atEnd()) {
                if (terminator != '\0') {
                    throw s.error("a closing " + terminator + " is missing");
                }
                break;
            }
            if (s.peek() == terminator) {
                break;
            }
            if (s.peek() == ')' || s.peek() == '}') {
                throw s.error("an unexpected " + s.peek());
            }
            chain(out);
            s.skip(false);
            char c = s.peek();
            boolean afterParam = !out.isEmpty() && (out.getLast() instanceof PsAst.Block b && NO_SEPARATOR.contains(b.keyword())
                    || attribute(out.getLast()));
            if (c == ';' || PsScanner.isNewline(c)) {
                s.pos++;
            } else if (!s.atEnd() && c != terminator && !afterParam) {
                // a param( ) block, its [CmdletBinding()] and the named blocks (begin { } process { } end { }) need no
                // separator after them
                throw s.error("unexpected text after a statement");
            }
        }
        leave();
        return out;
    }

    /** A statement, and the pipelines {@code &&} and {@code ||} chain to it. */
    private void chain(List<PsAst.Statement> out) {
        out.add(statement());
        while (true) {
            s.skip(false);
            if (!s.startsWith("&&") && !s.startsWith("||")) {
                return;
            }
            if (windowsPowerShell) {
                throw s.error("Windows PowerShell 5.1 has no && or ||");
            }
            s.pos += 2;
            s.skip(true);
            out.add(statement());
        }
    }

    PsAst.Statement statement() {
        s.skip(false);
        if (s.peek() == ':' && PsScanner.isNameChar(s.peek(1))) {
            s.pos++;
            while (PsScanner.isNameChar(s.peek())) {
                s.pos++;
            }
            s.skip(true);
        }
        String keyword = keyword();
        if (keyword != null) {
            if (UNSUPPORTED.contains(keyword)) {
                throw s.error("shellgate does not judge PowerShell '" + keyword + "' statements");
            }
            PsAst.Statement k = PsKeywords.parse(this, keyword);
            if (k != null) {
                return k;
            }
        }
        int start = s.pos;
        PsAst.Pipeline pipeline = PsCommands.pipeline(this);
        s.skip(false);
        String op = assignmentOperator();
        if (op == null) {
            return pipeline;
        }
        if (pipeline.elements().size() != 1 || !(pipeline.elements().getFirst() instanceof PsAst.ExprElement e)
                || !e.redirects().isEmpty()) {
            throw s.error("an assignment to something that is not a variable or property");
        }
        s.pos += op.length();
        s.skip(true);
        PsAst.Statement value = statement();
        return new PsAst.Assignment(e.expr(), op, value, s.span(start));
    }

    /** The keyword at the cursor (lower case), when a name there is one and is not a command like foreach-object. */
    private String keyword() {
        int end = s.pos;
        while (end < s.text.length() && Character.isLetter(s.text.charAt(end))) {
            end++;
        }
        if (end == s.pos || end < s.text.length() && (PsScanner.isNameChar(s.text.charAt(end))
                || PsScanner.isDash(s.text.charAt(end)) || s.text.charAt(end) == '.' || s.text.charAt(end) == '\\')) {
            return null;
        }
        String word = s.text.substring(s.pos, end).toLowerCase(Locale.ROOT);
        return PsKeywords.ALL.contains(word) || UNSUPPORTED.contains(word) ? word : null;
    }

    private String assignmentOperator() {
        char c = s.peek();
        if (c == '=' && s.peek(1) != '=') {
            return "=";
        }
        if ((c == '+' || PsScanner.isDash(c) || c == '*' || c == '/' || c == '%') && s.peek(1) == '=') {
            return s.text.substring(s.pos, s.pos + 2);
        }
        if (s.startsWith("??=")) {
            return "??=";
        }
        return null;
    }

    /** {@code { statements }} at the cursor, after optional whitespace and newlines. */
    List<PsAst.Statement> block() {
        s.skip(true);
        if (s.peek() != '{') {
            throw s.error("a { block } was expected");
        }
        s.pos++;
        List<PsAst.Statement> body = statements('}');
        s.pos++;
        return body;
    }

    /** {@code ( statements )} at the cursor. */
    List<PsAst.Statement> parenthesised() {
        s.skip(true);
        if (s.peek() != '(') {
            throw s.error("a ( condition ) was expected");
        }
        s.pos++;
        List<PsAst.Statement> body = statements(')');
        s.pos++;
        return body;
    }

    /** Whether a statement is an attribute alone ({@code [CmdletBinding()]} before a param( ) block). */
    private static boolean attribute(PsAst.Statement st) {
        return st instanceof PsAst.Pipeline p && p.elements().size() == 1 && p.elements().getFirst() instanceof PsAst.ExprElement e
                && e.expr() instanceof PsAst.TypeName t && PsConversions.isAttribute(t.name());
    }
}
