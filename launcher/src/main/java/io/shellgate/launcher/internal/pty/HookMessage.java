package io.shellgate.launcher.internal.pty;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the shell's integration tells the proxy. On the wire: fields ended by NUL bytes, the first
 * naming the kind and the last an {@link #END} field. {@code check SEQ LINE CWD NAME=VALUE...} is sent at Enter with the exact edit
 * buffer and waits for a reply; {@code prompt} is sent each time the shell shows a prompt.
 */
public sealed interface HookMessage {

    /** The last field of every message: an ASCII record separator alone. */
    String END = "\u001e";

    /**
     * Where the first whole message in {@code bytes} ends (just after its end field), or -1 when
     * there is none yet.
     */
    static int end(byte[] bytes) {
        for (int i = 0; i + 1 < bytes.length; i++) {
            if (bytes[i] == 0x1e && bytes[i + 1] == 0 && (i == 0 || bytes[i - 1] == 0)) {
                return i + 2;
            }
        }
        return -1;
    }

    /** The line in the edit buffer at Enter, where it would run and with which exported variables. */
    record Check(long seq, String line, Path cwd, Map<String, String> env) implements HookMessage {}

    /** The hook made room on the screen for the proxy's messages about check {@code seq}. */
    record Shown(long seq) implements HookMessage {}

    /** The shell is about to show its prompt. */
    record Prompt() implements HookMessage {}

    /** Anything else: answered with a refusal. */
    record Malformed(String why) implements HookMessage {}

    static HookMessage parse(byte[] bytes) {
        List<String> fields = new ArrayList<>(fields(new String(bytes, StandardCharsets.UTF_8)));
        if (!fields.isEmpty() && fields.getLast().equals(END)) {
            fields.removeLast();
        }
        if (fields.isEmpty()) {
            return new Malformed("an empty message");
        }
        return switch (fields.getFirst()) {
            case "prompt" -> new Prompt();
            case "check" -> check(fields);
            case "shown" -> fields.size() == 2 && fields.get(1).matches("\\d{1,18}") ? new Shown(Long.parseLong(fields.get(1)))
                    : new Malformed("a shown without a sequence number");
            default -> new Malformed("an unknown message kind " + fields.getFirst());
        };
    }

    private static HookMessage check(List<String> fields) {
        if (fields.size() < 4 || !fields.get(1).matches("\\d{1,18}") || !fields.get(3).startsWith("/")
                && !fields.get(3).matches("[A-Za-z]:\\\\.*")) {
            return new Malformed("a check without a sequence number, line and absolute directory");
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String kv : fields.subList(4, fields.size())) {
            int eq = kv.indexOf('=');
            if (eq > 0) {
                env.putIfAbsent(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        return new Check(Long.parseLong(fields.get(1)), fields.get(2), Path.of(fields.get(3)), env);
    }

    private static List<String> fields(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\0') {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            out.add(text.substring(start));
        }
        return out;
    }
}
