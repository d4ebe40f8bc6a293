package io.shellgate.judge.internal.analysis.model;

import io.shellgate.judge.internal.syntax.Script;
import java.util.ArrayList;
import java.util.List;

/** Accumulates the fields of one word. */
final class FieldBuilder {
    final List<Field> done = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    List<Script> producers = new ArrayList<>();
    boolean processSub;
    boolean keep;
    boolean expanded;

    void append(String text, boolean patterns) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            current.append(patterns ? switch (c) {
                case '*' -> Field.STAR;
                case '?' -> Field.QUESTION;
                case '[' -> Field.BRACKET;
                default -> c;
            } : c);
        }
    }

    void hole(Script producer) {
        current.append(Field.HOLE);
        producers.add(producer);
        expanded = true;
    }

    void split() {
        if (!current.isEmpty() || keep) {
            done.add(new Field(current.toString(), producers, processSub, expanded));
        }
        current = new StringBuilder();
        keep = false;
    }

    List<Field> finish() {
        if (!current.isEmpty() || keep) {
            done.add(new Field(current.toString(), producers, processSub, expanded));
        }
        return done;
    }
}
