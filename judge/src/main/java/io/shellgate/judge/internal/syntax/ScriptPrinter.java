package io.shellgate.judge.internal.syntax;

import java.util.List;

/** A compact, stable text form of a {@link Script}, for tests and {@code explain}. */
public final class ScriptPrinter {

    private ScriptPrinter() {}

    public static String print(Script script) {
        StringBuilder sb = new StringBuilder();
        command(script.body(), sb);
        if (!script.errors().isEmpty()) {
            sb.append(" errors=").append(script.errors().size());
        }
        return sb.toString();
    }

    private static void command(Command c, StringBuilder sb) {
        switch (c) {
            case Command.Simple s -> {
                sb.append("(cmd");
                for (Assignment a : s.assignments()) {
                    sb.append(' ').append(a.name());
                    if (a.subscript() != null) {
                        sb.append('[');
                        word(a.subscript(), sb);
                        sb.append(']');
                    }
                    sb.append(a.append() ? "+=" : "=");
                    if (a.array() != null) {
                        sb.append('(');
                        words(a.array(), sb);
                        sb.append(')');
                    } else {
                        word(a.value(), sb);
                    }
                }
                for (Word w : s.words()) {
                    sb.append(' ');
                    word(w, sb);
                }
                for (Redirect r : s.redirects()) {
                    sb.append(' ');
                    redirect(r, sb);
                }
                sb.append(')');
            }
            case Command.Pipeline p -> list("pipe", p.stages(), sb);
            case Command.Sequence s -> list("seq", s.items(), sb);
            case Command.Background b -> wrap("bg", b.body(), sb);
            case Command.Negated n -> wrap("not", n.body(), sb);
            case Command.Subshell s -> wrap("subshell", s.body(), sb);
            case Command.Group g -> wrap("group", g.body(), sb);
            case Command.Redirected r -> {
                sb.append("(redirected ");
                command(r.body(), sb);
                for (Redirect x : r.redirects()) {
                    sb.append(' ');
                    redirect(x, sb);
                }
                sb.append(')');
            }
            case Command.Compound k -> {
                sb.append('(').append(k.kind());
                if (k.variable() != null) {
                    sb.append(' ').append(k.variable()).append(" in");
                }
                if (!k.words().isEmpty()) {
                    sb.append(" [");
                    words(k.words(), sb);
                    sb.append(']');
                }
                for (Command b : k.bodies()) {
                    sb.append(' ');
                    command(b, sb);
                }
                sb.append(')');
            }
            case Command.FunctionDef f -> {
                sb.append("(function ").append(f.name()).append(' ');
                command(f.body(), sb);
                sb.append(')');
            }
            case Command.Opaque o -> sb.append("(opaque ").append(o.why()).append(')');
        }
    }

    private static void list(String name, List<Command> items, StringBuilder sb) {
        sb.append('(').append(name);
        for (Command c : items) {
            sb.append(' ');
            command(c, sb);
        }
        sb.append(')');
    }

    private static void wrap(String name, Command body, StringBuilder sb) {
        sb.append('(').append(name).append(' ');
        command(body, sb);
        sb.append(')');
    }

    private static void redirect(Redirect r, StringBuilder sb) {
        if (r.fd() >= 0) {
            sb.append(r.fd());
        }
        sb.append(r.op());
        if (r.heredoc() != null) {
            sb.append(r.heredoc().expands() ? "[" : "['");
            word(r.heredoc().body(), sb);
            sb.append(']');
        } else if (r.target() != null) {
            word(r.target(), sb);
        }
    }

    private static void words(List<Word> ws, StringBuilder sb) {
        for (int i = 0; i < ws.size(); i++) {
            if (i > 0) {
                sb.append(' ');
            }
            word(ws.get(i), sb);
        }
    }

    /** Quoted literals in {@code '...'}, unquoted ones bare, expansions in {@code ${...}} form. */
    public static void word(Word w, StringBuilder sb) {
        if (w.parts().isEmpty()) {
            sb.append("''");
        }
        for (Part p : w.parts()) {
            switch (p) {
                case Part.Literal l -> sb.append(l.quoted() ? "'" + l.text().replace("\n", "\\n") + "'" : l.text());
                case Part.Param v -> {
                    sb.append("${").append(v.name());
                    if (v.subscript() != null) {
                        sb.append('[');
                        word(v.subscript(), sb);
                        sb.append(']');
                    }
                    if (!v.operator().isEmpty()) {
                        sb.append(' ').append(v.operator());
                        for (Word o : v.operands()) {
                            sb.append(' ');
                            word(o, sb);
                        }
                    }
                    sb.append('}');
                }
                case Part.CommandSub s -> sb.append("$(").append(print(s.body())).append(')');
                case Part.ProcessSub s -> sb.append(s.input() ? "<(" : ">(").append(print(s.body())).append(')');
                case Part.Arithmetic a -> {
                    sb.append("$((");
                    word(new Word(a.expression(), a.span()), sb);
                    sb.append("))");
                }
                case Part.VariableName n -> {
                    sb.append("$name(");
                    word(new Word(n.parts(), n.span()), sb);
                    sb.append(')');
                }
                case Part.Opaque o -> sb.append("<?").append(o.why()).append('>');
            }
        }
    }
}
