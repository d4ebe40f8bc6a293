package io.shellgate.judge.internal.treesitter;

/** Decodes the body of bash's {@code $'...'} quoting, where {@code $'\x72m'} is {@code rm}. */
final class AnsiC {

    private AnsiC() {}

    static String decode(String body) {
        StringBuilder sb = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c != '\\' || i + 1 >= body.length()) {
                sb.append(c);
                continue;
            }
            char e = body.charAt(++i);
            switch (e) {
                case 'a' -> sb.append('\u0007');
                case 'b' -> sb.append('\b');
                case 'e', 'E' -> sb.append('\u001b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'v' -> sb.append('\u000b');
                case '\\', '\'', '"', '?' -> sb.append(e);
                case 'x' -> i = number(body, i + 1, 2, 16, sb) - 1;
                case 'u' -> i = number(body, i + 1, 4, 16, sb) - 1;
                case 'U' -> i = number(body, i + 1, 8, 16, sb) - 1;
                case 'c' -> {
                    if (i + 1 < body.length()) {
                        sb.append((char) (body.charAt(++i) & 0x1f));
                    } else {
                        sb.append("\\c");
                    }
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        i = number(body, i, 3, 8, sb) - 1;
                    } else {
                        sb.append('\\').append(e);
                    }
                }
            }
        }
        return sb.toString();
    }

    /** Reads up to {@code max} digits at {@code from}; returns the index after them. */
    private static int number(String body, int from, int max, int radix, StringBuilder sb) {
        int end = from;
        while (end < body.length() && end - from < max && Character.digit(body.charAt(end), radix) >= 0) {
            end++;
        }
        if (end == from) {
            // bash keeps "\x" with no digits as it is
            sb.append('\\').append(body.charAt(from - 1));
            return from;
        }
        int cp = Integer.parseInt(body, from, end, radix);
        if (cp == 0) {
            // bash stops the string at a NUL byte
            return body.length();
        }
        if (Character.isValidCodePoint(cp)) {
            sb.appendCodePoint(cp);
        }
        return end;
    }
}
