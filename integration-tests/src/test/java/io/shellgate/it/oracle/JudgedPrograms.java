package io.shellgate.it.oracle;

import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The programs a line may run because the judge judged them: what each command resolved to, the
 * program its name finds in {@code PATH} (xargs, find -exec and env look the name up themselves,
 * even where the shell has a builtin of that name), the wrappers stripped in front of it, the
 * interpreter a script names in its {@code #!} line (running a script runs its interpreter), what
 * a program runs by design ({@link Tolerated#RUNS_BY_DESIGN}), and git's own helper programs.
 *
 * <p>The verdict lists the commands of the line itself, not those of code the judge followed into
 * ({@code bash -c '...'}, {@code eval}, {@code watch}, code piped into a shell). When the line has
 * such a command, every program named by a word of the line counts as judged: a weaker check for
 * these lines, until the verdict lists the commands it judged inside them.
 */
final class JudgedPrograms {

    /** Builtins and programs whose arguments (or input) the judge judges as shell code. */
    private static final Set<String> CODE_RUNNERS = Set.of("eval", "source", ".", "watch");

    private final Set<String> paths = new HashSet<>();
    private boolean git;

    private JudgedPrograms() {}

    /** The programs judged for {@code line}; {@code shells} are the policy's shell names. */
    static JudgedPrograms of(Verdict verdict, String line, Set<String> shells) {
        JudgedPrograms j = new JudgedPrograms();
        boolean nestedCode = false;
        for (CommandInfo c : verdict.commands()) {
            String base = c.argv().isEmpty() ? "" : Path.of(c.argv().getFirst()).getFileName().toString();
            nestedCode |= CODE_RUNNERS.contains(base) || shells.contains(base);
            if (shells.contains(base) && loginShell(c.argv())) {
                for (String runs : Tolerated.LOGIN_FILES_RUN) {
                    j.add(lookUp(runs));
                }
            }
            if (c.resolved().startsWith("/")) {
                j.add(c.resolved());
            }
            if (shells.contains(base) && c.argv().size() > 1 && c.argv().get(1).startsWith("/")) {
                // a system script the shell reads (sh /usr/bin/lsb_release), judged as the program of its name
                j.add(c.argv().get(1));
            }
            if (!c.argv().isEmpty()) {
                String name = c.argv().getFirst();
                j.add(name.contains("/") ? name : lookUp(name));
            }
            for (String w : c.wrappers()) {
                j.add(lookUp(w));
            }
        }
        if (nestedCode) {
            for (String word : words(line)) {
                j.add(word.contains("/") ? null : lookUp(word));
            }
        }
        return j;
    }

    /** Whether a shell's words start it as a login shell: {@code -l}, {@code --login}, or {@code -l} in a bundle ({@code -lc}). */
    private static boolean loginShell(List<String> argv) {
        for (String w : argv.subList(1, argv.size())) {
            if (w.equals("--login") || w.startsWith("-") && !w.startsWith("--") && w.indexOf('l') > 0) {
                return true;
            }
            if (!w.startsWith("-")) {
                return false;
            }
        }
        return false;
    }

    boolean contains(String path) {
        return paths.contains(path) || paths.contains(real(path)) || git && path.startsWith(Tolerated.GIT_EXEC_PATH);
    }

    /** The words of a line, split at blanks, quotes and the shell's operators. */
    private static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        for (char c : (line + " ").toCharArray()) {
            if (Character.isWhitespace(c) || "'\"`;|&()<>$={}".indexOf(c) >= 0) {
                if (!w.isEmpty()) {
                    out.add(w.toString());
                    w.setLength(0);
                }
            } else {
                w.append(c);
            }
        }
        return out;
    }

    private void add(String path) {
        if (path == null || !paths.add(path)) {
            return;
        }
        paths.add(real(path));
        String base = Path.of(path).getFileName().toString();
        git |= base.equals("git");
        for (String runs : Tolerated.RUNS_BY_DESIGN.getOrDefault(base, List.of())) {
            add(lookUp(runs));
        }
        String interpreter = interpreter(path);
        if (interpreter != null) {
            String[] words = interpreter.split(" ");
            add(words[0]);
            if (words[0].endsWith("/env") && words.length > 1) {
                add(lookUp(words[words.length - 1]));
            }
        }
    }

    /** The first executable {@code name} in the oracle's PATH, or null. */
    static String lookUp(String name) {
        if (name.contains("/") || name.isEmpty()) {
            return null;
        }
        for (String dir : World.PATH.split(":")) {
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    private static String real(String path) {
        try {
            return Path.of(path).toRealPath().toString();
        } catch (IOException | RuntimeException e) {
            return path;
        }
    }

    /** The {@code #!} line of a script, without the {@code #!}; null for a binary or an unreadable file. */
    private static String interpreter(String path) {
        try (InputStream in = Files.newInputStream(Path.of(path))) {
            byte[] head = in.readNBytes(256);
            if (head.length < 3 || head[0] != '#' || head[1] != '!') {
                return null;
            }
            String line = new String(head, StandardCharsets.UTF_8).substring(2).split("\n", 2)[0].strip();
            return line.isEmpty() ? null : String.join(" ", Arrays.stream(line.replace('\t', ' ').split(" "))
                    .filter(w -> !w.isEmpty()).toList());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
