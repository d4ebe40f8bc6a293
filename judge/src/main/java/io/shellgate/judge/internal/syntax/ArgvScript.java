package io.shellgate.judge.internal.syntax;

import io.shellgate.judge.ArgvText;
import io.shellgate.judge.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * A program started with an argument vector and no shell in between (what {@code execve} gets):
 * one simple command whose words are exactly those arguments. Its text is the same words quoted
 * for a shell, so that it reads alike in logs and prompts and the raw-text backstop has something
 * to scan; the command itself is built from the vector, never split again from the text.
 */
public final class ArgvScript {

    private ArgvScript() {}

    /** The simple command of the vector, with spans into its text ({@link ArgvText#line}). */
    public static Script script(List<String> argv) {
        List<Word> words = new ArrayList<>(argv.size());
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < argv.size(); i++) {
            if (i > 0) {
                line.append(' ');
            }
            int start = line.length();
            String word = ArgvText.word(argv.get(i), i == 0);
            boolean quoted = !word.equals(argv.get(i));
            line.append(word);
            Span span = new Span(start, line.length());
            words.add(new Word(List.of(new Part.Literal(argv.get(i), quoted, span)), span));
        }
        Span all = new Span(0, line.length());
        return new Script(new Command.Simple(List.of(), words, List.of(), all), List.of(), List.of());
    }

}
