package io.shellgate.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON the protocol needs, with JDK types only (the javaagent brings no library into the host
 * JVM): values written as one line, and a reader for one object. Objects read as {@code Map}s in
 * their order, arrays as {@code List}s, whole numbers as {@code Long}, other numbers as
 * {@code Double}.
 */
public final class Json {

    /** Deeper input is refused: the protocol's lines nest three levels at most. */
    static final int MAX_DEPTH = 64;

    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /** Appends {@code value} as a JSON string. */
    public static StringBuilder string(StringBuilder out, String value) {
        out.append('"');
        int plain = 0;
        while (plain < value.length() && isPlain(value.charAt(plain))) {
            plain++;
        }
        if (plain == value.length()) {
            // most of a command line is written as it is: one copy
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
                    // a lone surrogate would not survive UTF-8: written escaped, as the server reads it
                    if (c < 0x20 || Character.isSurrogate(c) && !pairedSurrogate(value, i)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }

    private static boolean isPlain(char c) {
        return c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c);
    }

    private static boolean pairedSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    /**
     * Appends {@code value}: a {@code String}, {@code Boolean}, whole {@code Number}, null, a
     * {@code Map} with string keys or a {@code List} of these.
     */
    public static StringBuilder write(StringBuilder out, Object value) {
        if (value == null) {
            return out.append("null");
        }
        if (value instanceof String s) {
            return string(out, s);
        }
        if (value instanceof Boolean || value instanceof Long || value instanceof Integer) {
            return out.append(value);
        }
        if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(string(out, (String) e.getKey()).append(':'), e.getValue());
            }
            return out.append('}');
        }
        if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                write(i == 0 ? out : out.append(','), list.get(i));
            }
            return out.append(']');
        }
        throw new IllegalArgumentException("no JSON form for a " + value.getClass().getName());
    }

    /** Reads one JSON object; throws {@link IllegalArgumentException} for anything else. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(String text) {
        Json p = new Json(text);
        Object v;
        try {
            v = p.value(0);
        } catch (IndexOutOfBoundsException | NumberFormatException e) {
            throw new IllegalArgumentException("malformed JSON at " + p.pos, e);
        }
        p.space();
        if (!(v instanceof Map) || p.pos != text.length()) {
            throw new IllegalArgumentException("not one JSON object");
        }
        return (Map<String, Object>) v;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("nested deeper than " + MAX_DEPTH);
        }
        space();
        if (pos >= text.length()) {
            throw new IllegalArgumentException("unexpected end");
        }
        switch (text.charAt(pos)) {
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
                    map.put(key, value(depth + 1));
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
                    list.add(value(depth + 1));
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
                switch (word) {
                    case "true":
                        return Boolean.TRUE;
                    case "false":
                        return Boolean.FALSE;
                    case "null":
                        return null;
                    default:
                        return number(word);
                }
            }
        }
    }

    /** A JSON number: whole ones of up to 18 digits as {@code Long}, others as {@code Double}. */
    private static Object number(String word) {
        int i = word.startsWith("-") ? 1 : 0;
        int digits = i;
        while (i < word.length() && Character.isDigit(word.charAt(i)) && word.charAt(i) < 0x80) {
            i++;
        }
        if (i == digits || word.charAt(digits) == '0' && i - digits > 1) {
            throw new IllegalArgumentException("not a JSON value: " + word);
        }
        if (i == word.length() && i - digits <= 18) {
            return Long.valueOf(word);
        }
        for (int j = i; j < word.length(); j++) {
            if ("0123456789.eE+-".indexOf(word.charAt(j)) < 0) {
                throw new IllegalArgumentException("not a JSON value: " + word);
            }
        }
        return Double.valueOf(word);
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
                case '"', '\\', '/' -> out.append(e);
                case 'u' -> {
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> throw new IllegalArgumentException("unknown escape \\" + e);
            }
        }
    }

    private void space() {
        while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
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
