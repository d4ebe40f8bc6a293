package io.shellgate.interceptor.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the judge server protocol needs, with JDK types only (the agent brings no
 * library into the host JVM): strings written escaped, and a reader for one reply object.
 */
final class Json {

    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /** Appends {@code value} as a JSON string. */
    static StringBuilder string(StringBuilder out, String value) {
        out.append('"');
        int plain = 0;
        while (plain < value.length() && isPlain(value.charAt(plain))) {
            plain++;
        }
        if (plain == value.length()) {
            return out.append(value).append('"');
        }
        out.append(value, 0, plain);
        for (int i = plain; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c) && !validSurrogate(value, i)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }

    /** Whether {@code c} is written as itself (most of a command line is). */
    private static boolean isPlain(char c) {
        return c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c);
    }

    private static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    /** Reads one JSON object; throws {@link IllegalArgumentException} for anything else. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String text) {
        Json p = new Json(text);
        Object v = p.value();
        p.space();
        if (!(v instanceof Map) || p.pos != text.length()) {
            throw new IllegalArgumentException("not one JSON object");
        }
        return (Map<String, Object>) v;
    }

    private Object value() {
        space();
        if (pos >= text.length()) {
            throw new IllegalArgumentException("unexpected end");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{' -> {
                pos++;
                Map<String, Object> map = new LinkedHashMap<>();
                space();
                if (peek('}')) {
                    return map;
                }
                do {
                    space();
                    String key = str();
                    space();
                    expect(':');
                    map.put(key, value());
                    space();
                } while (peek(','));
                expect('}');
                return map;
            }
            case '[' -> {
                pos++;
                List<Object> list = new ArrayList<>();
                space();
                if (peek(']')) {
                    return list;
                }
                do {
                    list.add(value());
                    space();
                } while (peek(','));
                expect(']');
                return list;
            }
            case '"' -> {
                return str();
            }
            default -> {
                int start = pos;
                while (pos < text.length() && "{}[],:\" \t\r\n".indexOf(text.charAt(pos)) < 0) {
                    pos++;
                }
                String word = text.substring(start, pos);
                return switch (word) {
                    case "true" -> Boolean.TRUE;
                    case "false" -> Boolean.FALSE;
                    case "null" -> null;
                    default -> Double.valueOf(word);
                };
            }
        }
    }

    private String str() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw new IllegalArgumentException("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = text.charAt(pos++);
            switch (e) {
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> out.append(e);
            }
        }
    }

    private void space() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private boolean peek(char c) {
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw new IllegalArgumentException("expected '" + c + "' at " + pos);
        }
    }
}
