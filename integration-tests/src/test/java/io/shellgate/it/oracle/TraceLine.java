package io.shellgate.it.oracle;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One line of {@code strace -y} output, split into its parts: {@code name(args) = result<fd path> ERRNO (text)},
 * or an end line ({@code +++ exited with 0 +++}, {@code +++ killed by SIGKILL +++}).
 *
 * @param name the system call, or {@code +++} for an end line
 * @param args the arguments as strace printed them, split at the top-level commas
 * @param result the return value as printed ({@code 3}, {@code -1}, {@code ?})
 * @param resultPath the path strace printed for a returned file descriptor, or null
 * @param errno the error name ({@code ENOENT}) when the call failed, or null
 */
record TraceLine(String name, List<String> args, String result, String resultPath, String errno) {

    /** Whether the call succeeded. */
    boolean ok() {
        return errno == null && !result.equals("?") && !result.startsWith("-");
    }

    boolean isEnd() {
        return name.equals("+++");
    }

    /** Argument {@code i}, or the empty string. */
    String arg(int i) {
        return i < args.size() ? args.get(i) : "";
    }

    /** Parses one line; null for a line that is not a system call (a signal, a note of strace's). */
    static TraceLine parse(String line) {
        if (line.startsWith("+++")) {
            return new TraceLine("+++", List.of(line), "0", null, null);
        }
        int open = line.indexOf('(');
        if (open <= 0 || !line.substring(0, open).chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_')) {
            return null;
        }
        int close = closing(line, open);
        if (close < 0) {
            return null;
        }
        String rest = line.substring(close + 1).strip();
        if (!rest.startsWith("=")) {
            return null;
        }
        rest = rest.substring(1).strip();
        int end = 0;
        while (end < rest.length() && !Character.isWhitespace(rest.charAt(end)) && rest.charAt(end) != '<') {
            end++;
        }
        String result = rest.substring(0, end);
        String path = null;
        if (end < rest.length() && rest.charAt(end) == '<') {
            int gt = rest.indexOf('>', end);
            int last = rest.lastIndexOf('>');
            gt = last > gt ? last : gt;
            path = gt > end ? rest.substring(end + 1, gt) : null;
            end = gt > end ? gt + 1 : rest.length();
        }
        String tail = rest.substring(end).strip();
        String errno = tail.startsWith("E") ? tail.split(" ", 2)[0] : null;
        return new TraceLine(line.substring(0, open), split(line.substring(open + 1, close)), result, path, errno);
    }

    /** The index of the parenthesis that closes the one at {@code open}, skipping strings and nested brackets. */
    private static int closing(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                i = endOfString(s, i);
            } else if (c == '(' || c == '[' || c == '{' || c == '<') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}' || c == '>') {
                depth--;
                if (depth == 0 && c == ')') {
                    return i;
                }
            }
        }
        return -1;
    }

    private static int endOfString(String s, int quote) {
        for (int i = quote + 1; i < s.length(); i++) {
            if (s.charAt(i) == '\\') {
                i++;
            } else if (s.charAt(i) == '"') {
                return i;
            }
        }
        return s.length();
    }

    private static List<String> split(String args) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < args.length(); i++) {
            char c = args.charAt(i);
            if (c == '"') {
                i = endOfString(args, i);
            } else if (c == '(' || c == '[' || c == '{' || c == '<') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}' || c == '>') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(args.substring(start, i).strip());
                start = i + 1;
            }
        }
        if (start < args.length()) {
            out.add(args.substring(start).strip());
        }
        return out;
    }

    /** The text of a quoted strace string ({@code "a\nb"...}), C escapes decoded; the argument itself otherwise. */
    static String unquote(String arg) {
        if (!arg.startsWith("\"")) {
            return arg;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 1; i < arg.length(); i++) {
            char c = arg.charAt(i);
            if (c == '"') {
                break;
            }
            if (c != '\\' || i + 1 >= arg.length()) {
                bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
                continue;
            }
            char e = arg.charAt(++i);
            switch (e) {
                case 'n' -> bytes.write('\n');
                case 't' -> bytes.write('\t');
                case 'r' -> bytes.write('\r');
                case 'v' -> bytes.write(0x0b);
                case 'f' -> bytes.write('\f');
                case 'x' -> {
                    bytes.write(Integer.parseInt(arg.substring(i + 1, Math.min(i + 3, arg.length())), 16));
                    i += 2;
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int j = i;
                        while (j < arg.length() && j < i + 3 && arg.charAt(j) >= '0' && arg.charAt(j) <= '7') {
                            j++;
                        }
                        bytes.write(Integer.parseInt(arg.substring(i, j), 8));
                        i = j - 1;
                    } else {
                        bytes.write(e);
                    }
                }
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /** The path strace printed for a file descriptor argument ({@code 3</a/b>}, {@code AT_FDCWD</a>}), or null. */
    static String fdPath(String arg) {
        int lt = arg.indexOf('<');
        return lt >= 0 && arg.endsWith(">") ? arg.substring(lt + 1, arg.length() - 1) : null;
    }
}
