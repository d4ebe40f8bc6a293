package io.shellgate.it.agents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads {@code strace -ff -ttt -v -s 1048576 -e trace=execve,connect -o PREFIX}: one file per
 * process, each execve on one line with its argv and environment as C strings, each connect with
 * its address.
 */
final class StraceLog {

    static final List<String> OPTIONS = List.of("-f", "-ff", "-qq", "-ttt", "-v", "-s", "1048576", "-e",
            "trace=execve,connect", "-e", "signal=none");

    /** An IPv4 or IPv6 address in a connect call, as strace prints it. */
    private static final Pattern INET = Pattern.compile(
            "sa_family=AF_INET6?, sin6?_port=htons\\((\\d+)\\), (?:sin_addr=inet_addr\\(\"([^\"]*)\"\\)|.*?inet_pton\\(AF_INET6, \"([^\"]*)\")");

    private final String line;
    private int at;

    private StraceLog(String line) {
        this.line = line;
    }

    /**
     * The IPv4 and IPv6 addresses every process under {@code prefix} tried to connect to, as
     * {@code address:port} (Unix sockets left out).
     */
    static List<String> connections(Path prefix) {
        List<String> targets = new ArrayList<>();
        for (Path file : files(prefix)) {
            try {
                for (String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1)) {
                    Matcher m = INET.matcher(line);
                    if (line.contains(" connect(") && m.find()) {
                        targets.add((m.group(2) != null ? m.group(2) : m.group(3)) + ":" + m.group(1));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return targets;
    }

    private static List<Path> files(Path prefix) {
        String name = prefix.getFileName().toString() + ".";
        try (Stream<Path> files = Files.list(prefix.getParent())) {
            return files.filter(f -> f.getFileName().toString().startsWith(name)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every successful execve under {@code prefix}, in the order they happened. */
    static List<Exec> read(Path prefix) {
        List<Exec> execs = new ArrayList<>();
        String name = prefix.getFileName().toString() + ".";
        try {
            for (Path file : files(prefix)) {
                int pid = Integer.parseInt(file.getFileName().toString().substring(name.length()));
                for (String line : Files.readAllLines(file, StandardCharsets.ISO_8859_1)) {
                    if (line.contains(" execve(") && line.endsWith(") = 0")) {
                        execs.add(new StraceLog(line).exec(pid));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        execs.sort(Comparator.comparingDouble(Exec::time));
        return execs;
    }

    private Exec exec(int pid) {
        double time = Double.parseDouble(line.substring(0, line.indexOf(' ')));
        at = line.indexOf(" execve(") + " execve(".length();
        String path = string();
        expect(", ");
        List<String> argv = array();
        expect(", ");
        Map<String, String> env = new LinkedHashMap<>();
        for (String entry : array()) {
            int eq = entry.indexOf('=');
            env.put(eq < 0 ? entry : entry.substring(0, eq), eq < 0 ? "" : entry.substring(eq + 1));
        }
        return new Exec(time, pid, path, argv, env);
    }

    private List<String> array() {
        expect("[");
        List<String> items = new ArrayList<>();
        while (line.charAt(at) != ']') {
            if (!items.isEmpty()) {
                expect(", ");
            }
            items.add(string());
        }
        at++;
        return items;
    }

    /** A C string as strace prints it; bytes come back as ISO-8859-1 chars and are decoded as UTF-8. */
    private String string() {
        expect("\"");
        StringBuilder bytes = new StringBuilder();
        while (line.charAt(at) != '"') {
            char c = line.charAt(at++);
            if (c != '\\') {
                bytes.append(c);
                continue;
            }
            char e = line.charAt(at++);
            switch (e) {
                case 'n' -> bytes.append('\n');
                case 't' -> bytes.append('\t');
                case 'r' -> bytes.append('\r');
                case 'v' -> bytes.append('\u000b');
                case 'f' -> bytes.append('\f');
                case 'x' -> {
                    bytes.append((char) Integer.parseInt(line.substring(at, at + 2), 16));
                    at += 2;
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int end = at - 1;
                        while (end < at + 1 && line.charAt(end + 1) >= '0' && line.charAt(end + 1) <= '7') {
                            end++;
                        }
                        bytes.append((char) Integer.parseInt(line.substring(at - 1, end + 1), 8));
                        at = end + 1;
                    } else {
                        bytes.append(e);
                    }
                }
            }
        }
        at++;
        if (line.startsWith("...", at)) {
            throw new IllegalStateException("strace cut a string short; raise -s: " + line);
        }
        return new String(bytes.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
    }

    private void expect(String text) {
        if (!line.startsWith(text, at)) {
            throw new IllegalStateException("unexpected strace line at " + at + ", wanted " + text + ": " + line);
        }
        at += text.length();
    }
}
