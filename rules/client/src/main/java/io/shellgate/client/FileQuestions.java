package io.shellgate.client;

import java.io.File;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The file questions an allow rests on (a reply's {@code recheck} facts, docs/protocol.md), to ask
 * again before the allow is reused. A {@code dir-} question counts as still answered for
 * {@link FileQuestion#DIRECTORY_TTL_NANOS} after it last was, as in the judge.
 */
public final class FileQuestions {

    /** One question with the answer it must get; {@code heldAt} is when a {@code dir-} question last got it. */
    private static final class Asked {
        final FileQuestion question;
        final File file;
        final Path path;
        final String answer;
        volatile long heldAt;
        volatile boolean held;

        Asked(FileQuestion question, String path, String answer) {
            this.question = question;
            this.file = new File(path);
            this.path = Path.of(path);
            this.answer = answer;
        }
    }

    private final List<Asked> questions;

    private FileQuestions(List<Asked> questions) {
        this.questions = questions;
    }

    /**
     * The questions of a reply's {@code facts}, each {@code [op, path, answer]}; null when one is
     * malformed or a question this client does not know: such an allow must never be reused.
     */
    public static FileQuestions of(List<?> facts) {
        List<Asked> questions = new ArrayList<>(facts.size());
        for (Object f : facts) {
            if (!(f instanceof List<?> fact) || fact.size() != 3 || !(fact.get(0) instanceof String op)
                    || !(fact.get(1) instanceof String path) || !(fact.get(2) instanceof String answer)
                    || FileQuestion.named(op) == null || !path.startsWith("/") || path.indexOf('\0') >= 0) {
                return null;
            }
            try {
                questions.add(new Asked(FileQuestion.named(op), path, answer));
            } catch (InvalidPathException e) {
                return null;
            }
        }
        return new FileQuestions(List.copyOf(questions));
    }

    /** Whether every question still gets its answer. */
    public boolean stillHold() {
        long now = 0;
        for (Asked q : questions) {
            if (q.question.aboutTrustedDirectory()) {
                if (now == 0) {
                    now = System.nanoTime();
                }
                if (q.held && now - q.heldAt < FileQuestion.DIRECTORY_TTL_NANOS) {
                    continue;
                }
                if (!q.answer.equals(q.question.answer(q.file, q.path))) {
                    return false;
                }
                q.heldAt = now;
                q.held = true;
            } else if (!q.answer.equals(q.question.answer(q.file, q.path))) {
                return false;
            }
        }
        return true;
    }
}
