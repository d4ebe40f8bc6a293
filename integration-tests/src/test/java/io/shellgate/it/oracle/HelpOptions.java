package io.shellgate.it.oracle;

import io.shellgate.rules.OptionSpec;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The options a program says it has, read from its own help ({@code git log -h}, bash's
 * {@code help set}, {@code ps --help}): the grammar of an entry the policy lists with {@code *}
 * (any option) is the program's, so the oracle tries every option the program knows.
 */
final class HelpOptions {

    /** Options taken from one help text at most: a bound on the lines one program adds. */
    static final int MAX_PER_PROGRAM = 400;

    private final Path cwd;
    private final Map<String, String> env;
    private final Map<String, List<OptionSpec>> cache = new ConcurrentHashMap<>();

    HelpOptions(Path cwd, Map<String, String> env) {
        this.cwd = cwd;
        this.env = env;
    }

    /** Reads the help of every command in {@code commands}, a few at a time (many are JVMs, Node or Python starting). */
    void prefetch(List<String> commands, Set<String> bashBuiltins) {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (String c : commands) {
                pool.submit(() -> of(c, bashBuiltins.contains(c)));
            }
        } finally {
            pool.shutdown();
            try {
                pool.awaitTermination(10, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The options {@code command} (one or two words) lists in its help; empty when it has none or is not installed. */
    List<OptionSpec> of(String command, boolean bashBuiltin) {
        return cache.computeIfAbsent(command, c -> parse(run(helpCommand(c, bashBuiltin))));
    }

    private static List<String> helpCommand(String command, boolean bashBuiltin) {
        List<String> words = List.of(command.split(" "));
        if (bashBuiltin) {
            return List.of("bash", "-c", "help " + words.getFirst());
        }
        List<String> out = new ArrayList<>(words);
        out.add(words.getFirst().equals("git") ? "-h" : "--help");
        return out;
    }

    private String run(List<String> command) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().clear();
            pb.environment().putAll(env);
            Process p = pb.start();
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                out = in.readNBytes(64 * 1024);
                in.transferTo(OutputStream.nullOutputStream());
            }
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "";
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return ""; // not installed: the judge resolves it to nothing, and no line of it is allowed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    /** Every word of the text that looks like an option, with the arity its neighbour suggests. */
    static List<OptionSpec> parse(String help) {
        Map<String, OptionSpec> found = new TreeMap<>();
        for (String line : help.split("\n")) {
            List<String> tokens = tokens(line);
            for (int i = 0; i < tokens.size(); i++) {
                String next = i + 1 < tokens.size() ? tokens.get(i + 1) : "";
                for (OptionSpec o : options(tokens.get(i), next)) {
                    found.putIfAbsent(o.name(), o);
                }
            }
        }
        return found.values().stream().limit(MAX_PER_PROGRAM).toList();
    }

    /** The words of a line, split at white space, commas and bars. */
    private static List<String> tokens(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= line.length(); i++) {
            char c = i < line.length() ? line.charAt(i) : ' ';
            if (Character.isWhitespace(c) || c == ',' || c == '|') {
                if (!word.isEmpty()) {
                    out.add(word.toString());
                    word.setLength(0);
                }
            } else {
                word.append(c);
            }
        }
        return out;
    }

    /** The options one token names: {@code -x}, {@code --name=<v>}, {@code --name[=<v>]}, {@code --[no-]name}, {@code [-abc]}. */
    static List<OptionSpec> options(String token, String next) {
        String t = strip(token, "[({", "");
        if (token.startsWith("[-") && token.endsWith("]") && !t.startsWith("--")) {
            String letters = strip(t, "", "])}");
            if (letters.length() > 2 && letters.substring(1).chars().allMatch(Character::isLetterOrDigit)) {
                return letters.substring(1).chars()
                        .mapToObj(c -> new OptionSpec("-" + (char) c, OptionSpec.Arity.NONE)).toList();
            }
        }
        if (!t.startsWith("-") || t.startsWith("---")) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        if (t.startsWith("--[no-]")) {
            t = "--" + t.substring(7);
            names.add("--no-");
        }
        OptionSpec.Arity arity = placeholder(next) ? OptionSpec.Arity.REQUIRED : OptionSpec.Arity.NONE;
        int bracket = t.indexOf('[');
        int eq = t.indexOf('=');
        if (bracket > 0 && (eq < 0 || bracket < eq)) {
            t = t.substring(0, bracket); // --abbrev[=<n>], -O[<pager>]: an optional value, attached
            arity = OptionSpec.Arity.OPTIONAL;
        } else if (eq > 0) {
            t = t.substring(0, eq);
            arity = OptionSpec.Arity.REQUIRED;
        }
        t = strip(t, "", "])}.:;");
        List<OptionSpec> out = new ArrayList<>();
        if (validName(t)) {
            out.add(new OptionSpec(t, arity));
            if (!names.isEmpty()) {
                out.add(new OptionSpec("--no-" + t.substring(2), OptionSpec.Arity.NONE));
            }
        }
        return out;
    }

    private static String strip(String s, String leading, String trailing) {
        int start = 0;
        int end = s.length();
        while (start < end && leading.indexOf(s.charAt(start)) >= 0) {
            start++;
        }
        while (end > start && trailing.indexOf(s.charAt(end - 1)) >= 0) {
            end--;
        }
        return s.substring(start, end);
    }

    private static boolean placeholder(String next) {
        if (next.startsWith("<") || next.startsWith("=")) {
            return true;
        }
        return next.length() > 1 && next.chars().allMatch(c -> Character.isUpperCase(c) || c == '_' || c == '-')
                && Character.isUpperCase(next.charAt(0));
    }

    private static boolean validName(String n) {
        int dashes = n.startsWith("--") ? 2 : 1;
        if (n.length() <= dashes || n.length() > 40) {
            return false;
        }
        for (int i = dashes; i < n.length(); i++) {
            char c = n.charAt(i);
            boolean ok = Character.isLetterOrDigit(c) || (i > dashes && (c == '-' || c == '_' || c == '.'));
            if (!ok || c > 127) {
                return false;
            }
        }
        return dashes == 2 || n.length() == 2 || Character.isLetter(n.charAt(1));
    }
}
