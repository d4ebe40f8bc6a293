package io.shellgate.interceptor.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns the argv a JVM is about to start into what the judge is asked. A plain argv goes to the
 * judge as that argument vector, with argv[0] replaced by the file the JDK will run: one simple
 * command whose words are exactly those arguments, never split again (its text, the same words
 * quoted for a shell, is what logs and prompts show). A shell's script stays in its vector too
 * ({@code bash|sh|zsh -c SCRIPT}, {@code cmd /c}, {@code powershell|pwsh -Command|-EncodedCommand}):
 * the judge follows it itself, checking the trust of the shell that will run it and judging the
 * script in that shell's dialect (with its positional parameters). Taking the script out here
 * would judge what a {@code pwsh} planted on PATH was given, not the planted program.
 */
final class CommandLines {

    private CommandLines() {}

    static JudgeLine of(List<String> argv, Path dir, String jvmPath) {
        Path program = resolve(argv.get(0), dir, jvmPath);
        List<String> words = new ArrayList<>(argv);
        words.set(0, program != null ? program.toString() : argv.get(0));
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < words.size(); i++) {
            line.append(i == 0 ? "" : " ").append(quote(words.get(i), i == 0));
        }
        return new JudgeLine(line.toString(), List.copyOf(words));
    }

    /**
     * The variables a child's environment sets that the JVM's does not have, or has with another
     * value: what a tool put in {@code ProcessBuilder.environment()} or gave {@code Runtime.exec},
     * which is what a shell would write as {@code NAME=value cmd}, and is judged as that
     * ({@code LD_PRELOAD}, {@code BASH_ENV}, {@code KUBECONFIG}... change what runs). In name order;
     * only names a shell can assign (others, such as bash's exported functions, stay in the
     * environment, where the judge looks at them).
     */
    static Map<String, String> assigned(Map<String, String> child, Map<String, String> jvm) {
        Map<String, String> assigned = new TreeMap<>();
        for (Map.Entry<String, String> e : child.entrySet()) {
            if (!e.getValue().equals(jvm.get(e.getKey())) && isName(e.getKey())) {
                assigned.put(e.getKey(), e.getValue());
            }
        }
        return assigned;
    }

    /** The child's environment before {@code assigned}: those variables as the JVM has them, or absent. */
    static Map<String, String> before(Map<String, String> child, Map<String, String> jvm, Map<String, String> assigned) {
        Map<String, String> env = new HashMap<>(child);
        for (String name : assigned.keySet()) {
            String old = jvm.get(name);
            if (old == null) {
                env.remove(name);
            } else {
                env.put(name, old);
            }
        }
        return env;
    }

    /** The line with {@code NAME=value} in front of the command, for each assigned variable; a script. */
    static JudgeLine withAssignments(JudgeLine line, Map<String, String> assigned) {
        if (assigned.isEmpty()) {
            return line;
        }
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, String> e : assigned.entrySet()) {
            text.append(e.getKey()).append('=').append(quote(e.getValue(), false)).append(' ');
        }
        return new JudgeLine(text.append(line.command()).toString(), null);
    }

    /**
     * The line with the files the JDK connects to the process's standard streams (a
     * ProcessBuilder's {@code redirectInput/Output/Error}) written as the shell's redirections
     * ({@code < f}, {@code > f}, {@code >> f}, {@code 2> f}, {@code 2>> f}): the JVM opens them
     * for the child, so a harmless program with its output sent to {@code ~/.bashrc} writes that
     * file, and one reading from a key file reads the key. A line with any becomes a script (the
     * judge parses the quoted words back exactly; a shell's script is followed the same way). A relative
     * name is resolved in the JVM's directory, where the JDK opens it, not the child's. Unchanged
     * when no stream is a file ({@code Redirect.DISCARD} is {@code /dev/null}, which is one).
     *
     * @param redirects standard input, output and error, as ProcessImpl gets them (null entries
     *     and a null array inherit or pipe)
     */
    static JudgeLine withRedirects(JudgeLine line, ProcessBuilder.Redirect[] redirects, Path jvmDir) {
        if (redirects == null) {
            return line;
        }
        StringBuilder text = null;
        for (int fd = 0; fd < Math.min(3, redirects.length); fd++) {
            ProcessBuilder.Redirect r = redirects[fd];
            if (r == null || r.file() == null) {
                continue;
            }
            String op = switch (r.type()) {
                case READ -> "<";
                case WRITE -> ">";
                case APPEND -> ">>";
                default -> null;
            };
            if (op == null) {
                continue;
            }
            if (text == null) {
                text = new StringBuilder(line.command());
            }
            String file = jvmDir.resolve(r.file().getPath()).toString();
            text.append(' ').append(fd == 2 ? "2" : "").append(op).append(' ').append(quote(file, false));
        }
        return text == null ? line : new JudgeLine(text.toString(), null);
    }

    /**
     * The file the JDK runs for {@code program}: a name with a slash is a path (relative to the
     * child's directory, where the JDK's child changes before it executes); a bare name is looked
     * up in the JVM's own PATH, not the child's, as the JDK does. Null when nothing is found.
     */
    static Path resolve(String program, Path dir, String jvmPath) {
        if (program.indexOf('/') >= 0) {
            return dir.resolve(program);
        }
        String path = jvmPath == null ? ":/bin:/usr/bin" : jvmPath;
        for (String element : path.split(":", -1)) {
            Path candidate = (element.isEmpty() ? dir : dir.resolve(element)).resolve(program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Single-quotes a word unless it is plainly one word; a program name is always a word, never a keyword. */
    static String quote(String word, boolean program) {
        if (isBare(word) && !(program && (word.indexOf('=') >= 0 || word.indexOf('/') < 0))) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** Whether a shell reads {@code word} as itself without quotes: letters, digits and {@code _./:,+@%=-}. */
    static boolean isBare(String word) {
        if (word.isEmpty()) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (!isAlnum(c) && "_./:,+@%=-".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code name} is one a shell can assign: a letter or {@code _}, then letters, digits, {@code _}. */
    static boolean isName(String name) {
        if (name.isEmpty() || name.charAt(0) >= '0' && name.charAt(0) <= '9') {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!isAlnum(c) && c != '_') {
                return false;
            }
        }
        return true;
    }

    private static boolean isAlnum(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
    }
}
