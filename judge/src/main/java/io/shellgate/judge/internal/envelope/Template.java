package io.shellgate.judge.internal.envelope;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An agent's text as a resource file, with {@code {{NAME}}} where the agent puts a variable part,
 * matched exactly (anchored, RE2): every character outside the placeholders must be the same.
 * A placeholder used several times must have the same value each time (RE2 has no back
 * references, so that is checked after the match).
 */
final class Template {

    private final Pattern pattern;
    private final List<String> names;

    private Template(Pattern pattern, List<String> names) {
        this.pattern = pattern;
        this.names = names;
    }

    /** The resource {@code file} beside this class, with each placeholder's RE2 in {@code parts}. */
    static Template load(String file, Map<String, String> parts) {
        return of(resource(file), parts);
    }

    static Template of(String text, Map<String, String> parts) {
        StringBuilder re = new StringBuilder();
        List<String> names = new ArrayList<>();
        int at = 0;
        while (true) {
            int open = text.indexOf("{{", at);
            if (open < 0) {
                break;
            }
            int close = text.indexOf("}}", open);
            String name = text.substring(open + 2, close);
            String part = parts.get(name);
            if (part == null) {
                throw new IllegalStateException("template placeholder without a definition: " + name);
            }
            re.append(Pattern.quote(text.substring(at, open))).append('(').append(part).append(')');
            names.add(name);
            at = close + 2;
        }
        re.append(Pattern.quote(text.substring(at)));
        return new Template(Pattern.compile(re.toString()), List.copyOf(names));
    }

    /** The placeholders' values when {@code text} is this template, each the same at every use; else null. */
    Map<String, String> match(String text) {
        Matcher m = pattern.matcher(text);
        if (!m.matches()) {
            return null;
        }
        Map<String, String> values = new java.util.HashMap<>();
        for (int g = 0; g < names.size(); g++) {
            String v = m.group(g + 1);
            String before = values.putIfAbsent(names.get(g), v);
            if (before != null && !before.equals(v)) {
                return null;
            }
        }
        return values;
    }

    static String resource(String file) {
        try (InputStream in = Template.class.getResourceAsStream(file)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
