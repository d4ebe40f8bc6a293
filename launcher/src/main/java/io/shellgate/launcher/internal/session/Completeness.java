package io.shellgate.launcher.internal.session;

import io.shellgate.judge.Dialect;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Whether text read from a session's input is a whole command yet: an open quote, an {@code if}
 * without {@code fi}, a heredoc without its end, a trailing {@code \} or {@code |} mean more lines
 * are needed. The shell itself decides ({@code sh -n}), as it would reading the same input.
 */
public final class Completeness {

    private final String shell;
    private final Dialect dialect;

    public Completeness(String shell, Dialect dialect) {
        this.shell = shell;
        this.dialect = dialect;
    }

    public boolean incomplete(String text) {
        if (continues(text)) {
            return true;
        }
        String err = check(shell, text);
        if (dialect != Dialect.ZSH) {
            return err != null && endOfInput(err);
        }
        if (err != null && (err.contains("parse error near `\\n'") || err.contains("unmatched"))) {
            return true;
        }
        // zsh -n reports neither an unterminated heredoc nor a for or while still waiting for its
        // do (zsh itself waits for more); bash -n does, and agrees with zsh on these constructs
        if (err == null) {
            String bash = check("bash", text);
            return bash != null && endOfInput(bash);
        }
        return false;
    }

    /** A line ending in an odd number of backslashes continues on the next one. */
    private static boolean continues(String text) {
        int end = text.endsWith("\n") ? text.length() - 1 : text.length();
        int i = end;
        while (i > 0 && text.charAt(i - 1) == '\\') {
            i--;
        }
        return (end - i) % 2 == 1;
    }

    private static boolean endOfInput(String err) {
        return err.contains("unexpected end of file") || err.contains("unexpected EOF") || err.contains("end of file unexpected")
                || err.contains("delimited by end-of-file") || err.contains("Unterminated quoted string");
    }

    /** What {@code shell -n} says about the text: its error output, or null when it found nothing. */
    private static String check(String shell, String text) {
        try {
            Process p = new ProcessBuilder(shell, "-n").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            byte[] err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            String e = new String(err, StandardCharsets.UTF_8);
            return p.exitValue() == 0 && e.isEmpty() ? null : e;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
