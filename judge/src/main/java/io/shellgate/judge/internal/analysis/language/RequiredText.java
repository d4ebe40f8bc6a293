package io.shellgate.judge.internal.analysis.language;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Words a regular expression cannot match without: a set of strings such that every text the
 * expression finds a match in contains one of them. Checking a few {@code contains} on the
 * lower-cased text is much cheaper than running the expression, and most command lines contain
 * none of the words of most rules, so the raw-text backstop runs only the expressions that may
 * match.
 *
 * <p>Soundness comes first: the words are derived from the expression's syntax (literals,
 * concatenation, alternation, repetition), compared in lower case (so case-insensitive flags
 * need no care), and anything the reader does not fully understand gives no words, which means
 * "always run". The check is only made on ASCII text: beyond ASCII, case folding (the Kelvin
 * sign is a {@code k} to {@code (?i)}) does not follow {@code toLowerCase}; for the same reason an
 * expression with characters beyond ASCII gives no words.
 */
public final class RequiredText {


    /** What a piece of the expression is known to match. */
    private record Info(Set<String> exact, Set<String> required) {

        static final Info UNKNOWN = new Info(null, null);
        static final Info EMPTY = new Info(Set.of(""), null);

        /** The strings a match of this piece contains one of, or null. */
        Set<String> words() {
            if (required != null) {
                return required;
            }
            return exact != null && !exact.contains("") ? exact : null;
        }
    }

    private static final class Unsupported extends Exception {
        Unsupported() {
            super(null, null, false, false);
        }
    }

    private final String re;
    private int pos;

    private RequiredText(String re) {
        this.re = re;
    }

    /**
     * The lower-case words every match of {@code regex} contains one of, or null when no such
     * words are known (the expression must always run).
     */
    public static List<String> of(String regex) {
        if (!isAscii(regex)) {
            // (?i)ſ matches an ASCII s that no lower-cased word would show
            return null;
        }
        try {
            RequiredText reader = new RequiredText(regex);
            Info info = reader.alternation();
            if (reader.pos != regex.length()) {
                return null;
            }
            Set<String> words = info.words();
            return words == null || words.isEmpty() || words.contains("") ? null : minimal(words);
        } catch (Unsupported | RuntimeException e) {
            return null;
        }
    }

    /** The words without those that contain another (a text with "vssadmin.exe" has "vssadmin"). */
    private static List<String> minimal(Set<String> words) {
        List<String> out = new ArrayList<>();
        for (String w : words) {
            boolean redundant = false;
            for (String other : words) {
                if (!other.equals(w) && w.contains(other)) {
                    redundant = true;
                    break;
                }
            }
            if (!redundant) {
                out.add(w);
            }
        }
        return List.copyOf(out);
    }

    /** Whether a text may contain a match, given the words from {@link #of}; {@code lower} is the lower-cased text. */
    public static boolean mayMatch(List<String> words, String lower) {
        if (words == null) {
            return true;
        }
        for (String w : words) {
            if (lower.contains(w)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the text is ASCII only, where lower-casing is exact. */
    public static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private Info alternation() throws Unsupported {
        Info first = concatenation();
        if (pos >= re.length() || re.charAt(pos) != '|') {
            return first;
        }
        Set<String> exact = first.exact == null ? null : new LinkedHashSet<>(first.exact);
        Set<String> words = first.words() == null ? null : new LinkedHashSet<>(first.words());
        while (pos < re.length() && re.charAt(pos) == '|') {
            pos++;
            Info next = concatenation();
            exact = exact == null || next.exact == null ? null : WordSets.union(exact, next.exact);
            words = words == null || next.words() == null ? null : WordSets.union(words, next.words());
        }
        return new Info(exact, words);
    }

    private Info concatenation() throws Unsupported {
        Set<String> run = Set.of("");
        boolean allExact = true;
        Set<String> best = null;
        while (pos < re.length() && re.charAt(pos) != '|' && re.charAt(pos) != ')') {
            Info piece = repetition();
            if (piece.exact != null) {
                Set<String> joined = WordSets.cross(run, piece.exact);
                if (joined != null) {
                    run = joined;
                    continue;
                }
                best = WordSets.better(best, run);
                run = piece.exact;
                allExact = false;
            } else {
                best = WordSets.better(best, run);
                best = WordSets.better(best, piece.words());
                run = Set.of("");
                allExact = false;
            }
        }
        best = WordSets.better(best, run);
        return new Info(allExact ? run : null, best);
    }

    private Info repetition() throws Unsupported {
        Info atom = atom();
        if (pos >= re.length()) {
            return atom;
        }
        char c = re.charAt(pos);
        int min;
        int max;
        if (c == '*' || c == '+' || c == '?') {
            pos++;
            min = c == '+' ? 1 : 0;
            max = c == '?' ? 1 : -1;
        } else if (c == '{' && isCount(pos)) {
            int close = re.indexOf('}', pos);
            String[] bounds = re.substring(pos + 1, close).split(",", -1);
            min = Integer.parseInt(bounds[0]);
            max = bounds.length == 1 ? min : bounds[1].isEmpty() ? -1 : Integer.parseInt(bounds[1]);
            pos = close + 1;
        } else {
            return atom;
        }
        if (pos < re.length() && (re.charAt(pos) == '?' || re.charAt(pos) == '+')) {
            // lazy (or possessive, which RE2 refuses anyway): the same texts match
            pos++;
        }
        if (min == 0) {
            return max == 1 && atom.exact != null ? new Info(WordSets.union(atom.exact, Set.of("")), null) : Info.UNKNOWN;
        }
        if (min == 1 && max == 1) {
            return atom;
        }
        return new Info(null, atom.words());
    }

    /** Whether {@code {} at i starts a repetition count ({n}, {n,}, {n,m}); else it is a literal brace. */
    private boolean isCount(int i) {
        int close = re.indexOf('}', i);
        return close > i + 1 && re.substring(i + 1, close).matches("[0-9]+(,[0-9]*)?");
    }

    private Info atom() throws Unsupported {
        char c = re.charAt(pos);
        switch (c) {
            case '(' -> {
                return group();
            }
            case '[' -> {
                return new Info(characterClass(), null);
            }
            case '.' -> {
                pos++;
                return Info.UNKNOWN;
            }
            case '^', '$' -> {
                pos++;
                return Info.EMPTY;
            }
            case '\\' -> {
                return escape();
            }
            case '*', '+', '?', ')', '|' -> throw new Unsupported();
            default -> {
                pos++;
                return literal(c);
            }
        }
    }

    private static Info literal(char c) {
        return new Info(Set.of(String.valueOf(c).toLowerCase(Locale.ROOT)), null);
    }

    private Info group() throws Unsupported {
        pos++;
        if (re.startsWith("?", pos)) {
            int i = pos + 1;
            if (re.startsWith("P<", i) || re.startsWith("<", i)) {
                int close = re.indexOf('>', i);
                if (close < 0) {
                    throw new Unsupported();
                }
                pos = close + 1;
            } else {
                // flags, (?flags) on their own or (?flags:...) around a group; lower-casing makes them moot
                while (i < re.length() && "imsU-".indexOf(re.charAt(i)) >= 0) {
                    i++;
                }
                if (i >= re.length()) {
                    throw new Unsupported();
                }
                if (re.charAt(i) == ')') {
                    pos = i + 1;
                    return Info.EMPTY;
                }
                if (re.charAt(i) != ':') {
                    throw new Unsupported();
                }
                pos = i + 1;
            }
        }
        Info inner = alternation();
        if (pos >= re.length() || re.charAt(pos) != ')') {
            throw new Unsupported();
        }
        pos++;
        return inner;
    }

    private Info escape() throws Unsupported {
        if (pos + 1 >= re.length()) {
            throw new Unsupported();
        }
        char e = re.charAt(pos + 1);
        pos += 2;
        return switch (e) {
            case 'b', 'B', 'A', 'z' -> Info.EMPTY;
            case 's', 'S', 'w', 'W', 'd', 'D' -> Info.UNKNOWN;
            case 'n' -> literal('\n');
            case 't' -> literal('\t');
            case 'r' -> literal('\r');
            case 'f' -> literal('\f');
            case 'v' -> literal('\u000b');
            default -> {
                if (Character.isLetterOrDigit(e) || e >= 0x80) {
                    // \p{..}, \x41, \Q..\E, back references and the like: not read here
                    throw new Unsupported();
                }
                yield literal(e);
            }
        };
    }

    /** Reads a bracket class; its members when it is small and plain, else null. */
    private Set<String> characterClass() throws Unsupported {
        pos++;
        boolean negated = re.startsWith("^", pos);
        if (negated) {
            pos++;
        }
        Set<String> members = new LinkedHashSet<>();
        boolean plain = !negated;
        boolean first = true;
        while (true) {
            if (pos >= re.length()) {
                throw new Unsupported();
            }
            char c = re.charAt(pos);
            if (c == ']' && !first) {
                pos++;
                break;
            }
            first = false;
            if (c == '[' && re.startsWith("[:", pos)) {
                int close = re.indexOf(":]", pos + 2);
                if (close < 0) {
                    throw new Unsupported();
                }
                pos = close + 2;
                plain = false;
                continue;
            }
            char member;
            if (c == '\\') {
                if (pos + 1 >= re.length()) {
                    throw new Unsupported();
                }
                char e = re.charAt(pos + 1);
                pos += 2;
                if ("sSwWdD".indexOf(e) >= 0) {
                    plain = false;
                    continue;
                }
                member = switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case 'f' -> '\f';
                    case 'v' -> '\u000b';
                    default -> {
                        if (Character.isLetterOrDigit(e) || e >= 0x80) {
                            throw new Unsupported();
                        }
                        yield e;
                    }
                };
            } else {
                member = c;
                pos++;
            }
            if (pos + 1 < re.length() && re.charAt(pos) == '-' && re.charAt(pos + 1) != ']') {
                // a range: its members are not listed
                pos++;
                if (re.charAt(pos) == '\\' || re.charAt(pos) == '[') {
                    throw new Unsupported();
                }
                pos++;
                plain = false;
                continue;
            }
            members.add(String.valueOf(member).toLowerCase(Locale.ROOT));
        }
        return plain && !members.isEmpty() && members.size() <= 4 ? members : null;
    }
}
