package io.shellgate.interceptor.internal;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Turns the argv a JVM is about to start into what the judge is asked. A plain argv goes to the
 * judge as that argument vector, with argv[0] replaced by the file the JDK will run: one simple
 * command whose words are exactly those arguments, never split again (its text, the same words
 * quoted for a shell, is what logs and prompts show). {@code bash|sh|zsh -c SCRIPT} stays one
 * command too: the judge follows a shell's {@code -c} itself (checking the shell's own trust, and
 * judging the script in that shell's dialect with its positional parameters). {@code cmd /c} and
 * {@code powershell|pwsh -Command|-EncodedCommand} become their script in their dialect.
 */
final class CommandLines {

    private static final Pattern BARE = Pattern.compile("[A-Za-z0-9_./:,+@%=-]+");

    private CommandLines() {}

    static JudgeLine of(List<String> argv, Path dir, String jvmPath) {
        String name = baseName(argv.get(0));
        JudgeLine script = switch (name) {
            case "cmd" -> cmdScript(argv);
            case "powershell", "pwsh" -> powershellScript(argv);
            default -> null;
        };
        if (script != null) {
            return script;
        }
        Path program = resolve(argv.get(0), dir, jvmPath);
        List<String> words = new ArrayList<>(argv);
        words.set(0, program != null ? program.toString() : argv.get(0));
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < words.size(); i++) {
            line.append(i == 0 ? "" : " ").append(quote(words.get(i), i == 0));
        }
        return new JudgeLine(line.toString(), "bash", null, List.copyOf(words));
    }

    /**
     * The line with the files the JDK connects to the process's standard streams (a
     * ProcessBuilder's {@code redirectInput/Output/Error}) written as the shell's redirections
     * ({@code < f}, {@code > f}, {@code >> f}, {@code 2> f}, {@code 2>> f}): the JVM opens them
     * for the child, so a harmless program with its output sent to {@code ~/.bashrc} writes that
     * file, and one reading from a key file reads the key. A line with any becomes a script (the
     * judge parses the quoted words back exactly; {@code -c} is followed the same way). A relative
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
            text.append(' ').append(fd == 2 ? "2" : "").append(op).append(' ').append(switch (line.dialect()) {
                case "cmd" -> "\"" + file + "\"";
                case "powershell" -> "'" + file.replace("'", "''") + "'";
                default -> quote(file, false);
            });
        }
        return text == null ? line : new JudgeLine(text.toString(), line.dialect(), line.positional());
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
        if (!word.isEmpty() && BARE.matcher(word).matches() && !(program && (word.indexOf('=') >= 0 || word.indexOf('/') < 0))) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private static String baseName(String program) {
        String name = program.substring(Math.max(program.lastIndexOf('/'), program.lastIndexOf('\\')) + 1)
                .toLowerCase(Locale.ROOT);
        return name.endsWith(".exe") ? name.substring(0, name.length() - 4) : name;
    }

    /** {@code cmd [/d /q /s ...] /c|/k REST}: REST is one cmd line, as cmd itself joins it. */
    private static JudgeLine cmdScript(List<String> argv) {
        for (int i = 1; i < argv.size(); i++) {
            String a = argv.get(i).toLowerCase(Locale.ROOT);
            if (a.equals("/c") || a.equals("/k")) {
                return new JudgeLine(String.join(" ", argv.subList(i + 1, argv.size())), "cmd", null);
            }
            if (!a.startsWith("/")) {
                return null;
            }
        }
        return null;
    }

    /**
     * {@code powershell|pwsh [options] -Command|-c REST} or {@code -EncodedCommand|-e|-ec BASE64}
     * (UTF-16LE). An option taking a value ({@code -ExecutionPolicy X}) is skipped with it; an
     * argv without a command is judged as a program.
     */
    private static JudgeLine powershellScript(List<String> argv) {
        for (int i = 1; i < argv.size(); i++) {
            String a = argv.get(i).toLowerCase(Locale.ROOT);
            if (!a.startsWith("-") && !a.startsWith("/")) {
                return null;
            }
            String option = a.substring(1);
            if (option.equals("c") || (option.length() >= 2 && "command".startsWith(option))) {
                return new JudgeLine(String.join(" ", argv.subList(i + 1, argv.size())), "powershell", null);
            }
            if (option.equals("e") || option.equals("ec") || (option.length() >= 2 && "encodedcommand".startsWith(option))) {
                if (i + 1 >= argv.size()) {
                    return null;
                }
                String script;
                try {
                    script = new String(Base64.getDecoder().decode(argv.get(i + 1).trim()), StandardCharsets.UTF_16LE);
                } catch (IllegalArgumentException e) {
                    // not base64: powershell would refuse it too; the judge asks about what it cannot read
                    script = argv.get(i + 1);
                }
                return new JudgeLine(script, "powershell", null);
            }
            if (TAKES_VALUE.contains(option)) {
                i++;
            }
        }
        return null;
    }

    private static final List<String> TAKES_VALUE = List.of("executionpolicy", "ex", "ep",
            "windowstyle", "w", "inputformat", "if", "outputformat", "of", "configurationname",
            "config", "workingdirectory", "wd", "version", "v", "psconsolefile", "settingsfile", "custompipename");
}
