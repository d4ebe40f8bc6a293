package io.shellgate.judge.internal.analysis.model;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.Word;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Expands words the way the shell will: braces, {@code ~}, parameters, substitutions, arithmetic,
 * word splitting, and marking of file name patterns. Code inside substitutions is judged as it is
 * reached; what it outputs is unknown.
 */
public final class Expander {

    /** Parts the judge reads from its analyzer ({@code Analyzer}): nested code, state changes and text it cannot interpret. */
    public interface Callbacks {

        /** Judges a substitution's script, which runs in a copy of {@code scope}. */
        void nested(Script script, Scope scope);

        void opaque(Part.Opaque part);

        /** {@code ${NAME:=word}} and {@code ${NAME=word}} assign NAME (with its subscript, or null). */
        void assigned(String name, Field subscript, Field value, Scope scope, Span span);

        /** A variable's value is expanded (a secret's name asks). */
        void expanded(String name, Scope scope, Span span);

        /** Text the shell evaluates as arithmetic: what it reads and assigns, and the code in it. */
        void arithmetic(Field expression, Scope scope, Span span);

        /** An array subscript, evaluated as arithmetic unless the array is associative. */
        void subscript(String array, Field subscript, Scope scope, Span span);

        /** Text read as a variable's name ({@code [[ -v NAME ]]}): its subscript is evaluated. */
        void variableName(Field name, Scope scope, Span span);

        /** {@code ${!x}} expands the variable x names: its value, unknown unless x plainly names one. */
        Field indirect(String name, Field subscript, Scope scope, Span span);

        Budget budget();
    }

    private static final Set<String> NUMERIC = Set.of("RANDOM", "LINENO", "SECONDS", "EPOCHSECONDS", "EPOCHREALTIME",
            "BASHPID", "PPID", "UID", "EUID", "SRANDOM", "#", "?", "$", "!");

    private static final java.util.regex.Pattern ASSIGNMENT_TILDE = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*=~");

    private final Callbacks callbacks;

    public Expander(Callbacks callbacks) {
        this.callbacks = callbacks;
    }

    /** The fields a command word becomes. */
    public List<Field> expand(Word word, Scope scope) {
        List<Field> out = new ArrayList<>();
        // bash decides whether a word looks like an assignment before it expands braces
        StringBuilder lead = new StringBuilder();
        for (Part p : word.parts()) {
            if (!(p instanceof Part.Literal l) || l.quoted()) {
                break;
            }
            lead.append(l.text());
        }
        boolean assignmentLike = ASSIGNMENT_TILDE.matcher(lead).lookingAt();
        List<List<Part>> alternatives = Braces.expand(word.parts());
        callbacks.budget().spend(alternatives.size());
        for (List<Part> alternative : alternatives) {
            out.addAll(fields(alternative, scope, true, assignmentLike));
        }
        return out;
    }

    /** A word that is not split or globbed (assignment values, redirect targets, here-strings). */
    public Field single(Word word, Scope scope) {
        List<Field> fields = fields(word.parts(), scope, false, false);
        Field result = Field.literal("");
        for (int i = 0; i < fields.size(); i++) {
            result = result.concat(i == 0 ? fields.get(i) : Field.literal(" ").concat(fields.get(i)));
        }
        return result;
    }

    private List<Field> fields(List<Part> parts, Scope scope, boolean split, boolean assignmentLike) {
        FieldBuilder b = new FieldBuilder();
        callbacks.budget().spend(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            Part part = parts.get(i);
            if (scope.dialect == Dialect.ZSH && part instanceof Part.Param p && unbracedSubscript(p, parts, i)) {
                // zsh reads $x[3,-1] (quoted too) as a subscript of x: a slice of a scalar, an element of an
                // array. Its value is not computed here: the expansion is judged, and what it gives is unknown.
                param(p, scope, new FieldBuilder(), false);
                b.expanded = true;
                b.keep = true;
                b.current.append(Field.HOLE);
                i = afterSubscript(parts, i + 1, b, scope);
                continue;
            }
            switch (part) {
                case Part.Literal l when l.quoted() -> {
                    b.append(l.text(), false);
                    b.keep = true;
                }
                case Part.Literal l -> {
                    // ~ expands only when its prefix, up to the first slash, is all unquoted
                    boolean tilde = i == 0 && (l.text().indexOf('/') >= 0 || parts.size() == 1);
                    String text = tilde ? tilde(l.text(), scope) : l.text();
                    int eq = text.indexOf("=~");
                    if (assignmentLike && eq >= 0 && text.substring(0, eq).chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_')) {
                        // bash may expand ~ after the = of an argument that looks like an assignment,
                        // depending on how the word was written: unknown
                        int slash = text.indexOf('/', eq);
                        text = text.substring(0, eq + 1) + Field.HOLE + (slash < 0 ? "" : text.substring(slash));
                    }
                    b.append(text, true);
                    b.keep |= !text.isEmpty();
                }
                case Part.Param p -> {
                    b.expanded = true;
                    param(p, scope, b, split);
                }
                case Part.CommandSub s -> {
                    callbacks.nested(s.body(), scope);
                    b.hole(s.body());
                    b.keep |= s.quoted();
                }
                case Part.ProcessSub s -> {
                    callbacks.nested(s.body(), scope);
                    b.append("/dev/fd/63", false);
                    b.producers.add(s.body());
                    b.processSub = true;
                    b.expanded = true;
                    b.keep = true;
                }
                case Part.Arithmetic a -> {
                    callbacks.arithmetic(single(new Word(a.expression(), a.span()), scope), scope, a.span());
                    b.current.append(Field.NUMBER);
                    b.expanded = true;
                    b.keep = true;
                }
                case Part.VariableName n -> {
                    Field name = single(new Word(n.parts(), n.span()), scope);
                    callbacks.variableName(name, scope, n.span());
                    b.append(name.text(), false);
                    b.producers.addAll(name.producers());
                    b.expanded |= name.expanded();
                    b.keep = true;
                }
                case Part.Opaque o -> {
                    callbacks.opaque(o);
                    b.current.append(Field.HOLE);
                    b.expanded = true;
                    b.keep = true;
                }
            }
        }
        return b.finish();
    }

    /** Whether {@code $name} is written without braces and followed at once by {@code [}: zsh's subscript. */
    private static boolean unbracedSubscript(Part.Param p, List<Part> parts, int i) {
        return p.subscript() == null && p.operator().isEmpty() && p.span().end() - p.span().start() == p.name().length() + 1
                && i + 1 < parts.size() && parts.get(i + 1) instanceof Part.Literal l && l.text().startsWith("[")
                && l.span().start() <= p.span().end();
    }

    /**
     * Skips the subscript that starts in {@code parts[from]} (up to its {@code ]}), appending what follows it
     * in the same literal; returns the index of the last part consumed. Without a {@code ]} the rest is unknown.
     * The expansions inside the subscript are judged (they run).
     */
    private int afterSubscript(List<Part> parts, int from, FieldBuilder b, Scope scope) {
        for (int j = from; j < parts.size(); j++) {
            if (parts.get(j) instanceof Part.Literal l && l.text().indexOf(']') >= 0) {
                String rest = l.text().substring(l.text().indexOf(']') + 1);
                b.append(rest, !l.quoted());
                return j;
            }
            if (!(parts.get(j) instanceof Part.Literal)) {
                fields(List.of(parts.get(j)), scope, false, false);
            }
        }
        return parts.size() - 1;
    }

    private void param(Part.Param p, Scope scope, FieldBuilder b, boolean split) {
        // operands may hold code that runs ("${x:-$(id)}"): judge it whether or not it is used, and
        // only once: expanding an operand again for its value made nested defaults exponential
        List<Field> operands = new ArrayList<>(p.operands().size());
        for (Word operand : p.operands()) {
            operands.add(single(operand, scope));
        }
        Field subscript = p.subscript() == null ? null : single(p.subscript(), scope);
        if (!p.operator().equals("names")) {
            callbacks.expanded(p.name(), scope, p.span());
        }
        if ((p.name().equals("@") || p.name().equals("*")) && p.operator().isEmpty() && scope.positional != null) {
            List<Field> pos = scope.positional;
            for (int i = 0; i < pos.size(); i++) {
                if (i > 0) {
                    if (p.quoted() && p.name().equals("@")) {
                        b.split();
                    } else {
                        b.append(" ", p.quoted() ? false : split);
                        if (!p.quoted() && split) {
                            b.split();
                        }
                    }
                }
                appendValue(pos.get(i), p.quoted(), split, scope, b);
            }
            b.keep |= p.quoted() && p.name().equals("*");
            return;
        }
        Field value = evaluate(p, scope, subscript, operands);
        if (value == null) {
            b.keep |= p.quoted();
            return;
        }
        appendValue(value, p.quoted(), split, scope, b);
        b.keep |= p.quoted();
    }

    private void appendValue(Field value, boolean quoted, boolean split, Scope scope, FieldBuilder b) {
        // a value copied into a word costs its length: "a=$a$a" doubles it each time
        callbacks.budget().spend(1 + value.text().length() / 2);
        b.producers.addAll(value.producers());
        b.processSub |= value.processSub();
        if (!value.isLiteral() || quoted || !split) {
            b.current.append(value.text());
            b.keep |= !value.text().isEmpty();
            return;
        }
        if (scope.options.ifsChanged) {
            b.current.append(Field.HOLE);
            return;
        }
        // unquoted: split on IFS whitespace, and pattern characters become active
        String text = value.text();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n') {
                b.split();
                while (i < text.length() && " \t\n".indexOf(text.charAt(i)) >= 0) {
                    i++;
                }
                continue;
            }
            b.append(String.valueOf(c), scope.dialect != Dialect.ZSH);
            b.keep = true;
            i++;
        }
    }

    /** A parameter's value: a field, null when it is unset and empty, or a hole when unknown. */
    private Field evaluate(Part.Param p, Scope scope, Field subscript, List<Field> operands) {
        String name = p.name();
        String op = p.operator();
        switch (op) {
            case "names", "keys" -> {
                // the names of variables, or the keys of an array: text the judge does not compute
                return Field.hole();
            }
            case "indirect" -> {
                return callbacks.indirect(name, subscript, scope, p.span());
            }
            default -> {
                // the value itself, below
            }
        }
        if (NUMERIC.contains(name)) {
            return new Field(String.valueOf(Field.NUMBER), List.of(), false);
        }
        Field value;
        if (name.equals("0")) {
            value = Field.literal(scope.dialect.id());
        } else if (!name.isEmpty() && name.chars().allMatch(Character::isDigit) && name.length() < 6) {
            int n = Integer.parseInt(name);
            value = scope.positional == null ? Field.hole() : n <= scope.positional.size() ? scope.positional.get(n - 1) : null;
        } else if (name.equals("@") || name.equals("*") || name.equals("-")) {
            value = Field.hole();
        } else {
            value = scope.lookup(name);
        }
        if (subscript != null) {
            String index = subscript.plain();
            if (!subscript.isLiteral() || !index.equals("@") && !index.equals("*")) {
                callbacks.subscript(name, subscript, scope, p.span());
            }
            // an element's value is not followed
            value = value == null ? null : Field.hole();
        }
        boolean set = value != null;
        boolean empty = value == null || value.text().isEmpty();
        boolean variable = !name.isEmpty() && (Character.isLetter(name.charAt(0)) || name.charAt(0) == '_');
        switch (op) {
            case "" -> {
                return value;
            }
            case ":-", "-", ":=", "=" -> {
                Field def = operands.isEmpty() ? Field.literal("") : operands.getFirst();
                boolean assigns = op.endsWith("=") && variable;
                if (value != null && value.hasUnknown()) {
                    if (assigns) {
                        // it may assign: judge the assignment, and the value stays unknown
                        callbacks.assigned(name, subscript, def, scope, p.span());
                        if (subscript == null) {
                            scope.vars.put(name, Field.hole());
                        }
                    }
                    return Field.hole();
                }
                boolean useDefault = op.startsWith(":") ? empty : !set;
                if (!useDefault) {
                    return value;
                }
                if (assigns) {
                    callbacks.assigned(name, subscript, def, scope, p.span());
                }
                return def;
            }
            case ":+", "+" -> {
                if (value != null && value.hasUnknown()) {
                    return Field.hole();
                }
                boolean use = op.startsWith(":") ? !empty : set;
                return use && !operands.isEmpty() ? operands.getFirst() : null;
            }
            case ":?", "?" -> {
                return value;
            }
            case "length" -> {
                return new Field(String.valueOf(Field.NUMBER), List.of(), false);
            }
            default -> {
                // substrings, pattern removal, substitution, case changes: not computed
                return value == null ? Field.hole() : new Field(String.valueOf(Field.HOLE), value.producers(), false);
            }
        }
    }

    private static String tilde(String text, Scope scope) {
        if (!text.startsWith("~")) {
            return text;
        }
        int slash = text.indexOf('/');
        String user = slash < 0 ? text.substring(1) : text.substring(1, slash);
        String rest = slash < 0 ? "" : text.substring(slash);
        Field home;
        if (user.isEmpty()) {
            home = scope.vars.get("HOME");
        } else if (user.equals("+")) {
            home = scope.vars.get("PWD");
        } else if (user.equals("-")) {
            home = scope.vars.get("OLDPWD");
        } else if (user.equals("root")) {
            home = Field.literal("/root");
        } else {
            // another user's home, or a prefix bash reads in its own ways (~:x): unknown
            return Field.HOLE + rest;
        }
        if (home == null || !home.isLiteral()) {
            return Field.HOLE + rest;
        }
        return home.text() + rest;
    }
}
