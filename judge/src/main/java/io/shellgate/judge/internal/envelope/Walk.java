package io.shellgate.judge.internal.envelope;

import io.shellgate.judge.internal.syntax.Assignment;
import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Redirect;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.Word;
import java.util.ArrayList;
import java.util.List;

/**
 * Every command of a parsed script, nested ones included (bodies of compounds and functions, and
 * the scripts of command and process substitutions), and every word they hold.
 */
final class Walk {

    /** What a walk found. */
    record Found(List<Command> commands, List<Word> words, List<String> names, boolean broken) {}

    private final List<Command> commands = new ArrayList<>();
    private final List<Word> words = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private boolean broken;

    private Walk() {}

    /** Every command, word, and name (assigned variables, loop variables, functions) in {@code root}. */
    static Found of(Command root) {
        Walk w = new Walk();
        w.command(root);
        return new Found(List.copyOf(w.commands), List.copyOf(w.words), List.copyOf(w.names), w.broken);
    }

    /** Whether the parser left any part of {@code root} not understood. */
    static boolean hasOpaque(Command root) {
        Found f = of(root);
        return f.broken || f.commands.stream().anyMatch(c -> c instanceof Command.Opaque)
                || f.words.stream().anyMatch(w -> w.parts().stream().anyMatch(p -> p instanceof Part.Opaque));
    }

    private void command(Command c) {
        commands.add(c);
        switch (c) {
            case Command.Simple s -> {
                for (Assignment a : s.assignments()) {
                    names.add(a.name());
                    word(a.value());
                    if (a.array() != null) {
                        a.array().forEach(this::word);
                    }
                }
                s.words().forEach(this::word);
                redirects(s.redirects());
            }
            case Command.Pipeline p -> p.stages().forEach(this::command);
            case Command.Sequence q -> q.items().forEach(this::command);
            case Command.Background b -> command(b.body());
            case Command.Negated n -> command(n.body());
            case Command.Subshell s -> command(s.body());
            case Command.Group g -> command(g.body());
            case Command.Redirected r -> {
                command(r.body());
                redirects(r.redirects());
            }
            case Command.Compound k -> {
                if (k.variable() != null) {
                    names.add(k.variable());
                }
                k.words().forEach(this::word);
                k.bodies().forEach(this::command);
            }
            case Command.FunctionDef f -> {
                names.add(f.name());
                command(f.body());
            }
            case Command.Opaque o -> { }
        }
    }

    private void redirects(List<Redirect> redirects) {
        for (Redirect r : redirects) {
            word(r.target());
            if (r.heredoc() != null) {
                word(r.heredoc().body());
            }
        }
    }

    private void nested(Script s) {
        broken |= !s.errors().isEmpty();
        command(s.body());
    }

    private void word(Word w) {
        if (w == null) {
            return;
        }
        words.add(w);
        w.parts().forEach(this::part);
    }

    private void part(Part p) {
        switch (p) {
            case Part.Param param -> {
                word(param.subscript());
                param.operands().forEach(this::word);
            }
            case Part.CommandSub sub -> nested(sub.body());
            case Part.ProcessSub sub -> nested(sub.body());
            case Part.Arithmetic a -> a.expression().forEach(this::part);
            case Part.VariableName v -> v.parts().forEach(this::part);
            case Part.Literal l -> { }
            // not understood inside an expression is not understood (parts there are no words)
            case Part.Opaque o -> broken = true;
        }
    }
}
