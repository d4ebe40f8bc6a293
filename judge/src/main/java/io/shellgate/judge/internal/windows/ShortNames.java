package io.shellgate.judge.internal.windows;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * 8.3 short names ({@code SSH~1}, {@code CREDEN~1}, {@code ID_RSA~1.PUB}, hashed ones such as
 * {@code SS4F2A~1}): Windows opens them as the long name they were made from, so a path with one
 * is checked as every long name it could stand for. The long names tried are the names the
 * sensitive paths mention and the entries of the directory when it exists.
 */
final class ShortNames {

    /** Past this many combinations a path is too ambiguous to check. */
    static final int LIMIT = 256;

    private ShortNames() {}

    /** Whether a file name has the shape of a short name: up to six characters, {@code ~}, digits, an extension of up to three. */
    static boolean isShort(String name) {
        int tilde = name.indexOf('~');
        if (tilde < 1 || tilde > 6 || name.length() > 12) {
            return false;
        }
        int i = tilde + 1;
        int digits = 0;
        while (i < name.length() && Character.isDigit(name.charAt(i))) {
            i++;
            digits++;
        }
        if (digits == 0) {
            return false;
        }
        if (i == name.length()) {
            return name.substring(0, tilde).indexOf('.') < 0;
        }
        return name.charAt(i) == '.' && name.length() - i - 1 <= 3 && name.substring(0, tilde).indexOf('.') < 0;
    }

    /**
     * The paths {@code path} may stand for, itself first; null when there are too many.
     *
     * @param vocabulary lower-case names (and name patterns with {@code *}) the sensitive paths mention
     * @param children the names in a directory, or null when it cannot be listed
     */
    static List<String> expand(String path, List<String> vocabulary, Function<String, List<String>> children) {
        List<String> segments = WindowsPaths.split(path, '/');
        List<String> forms = new ArrayList<>();
        forms.add("");
        boolean any = false;
        for (int i = 0; i < segments.size(); i++) {
            String seg = segments.get(i);
            List<String> options = new ArrayList<>();
            options.add(seg);
            if (isShort(seg)) {
                any = true;
                Set<String> names = new LinkedHashSet<>();
                for (String word : vocabulary) {
                    String name = representative(word, seg);
                    if (name != null) {
                        names.add(name);
                    }
                }
                String parent = String.join("/", segments.subList(0, i));
                List<String> listed = parent.isEmpty() ? null : children.apply(parent);
                if (listed != null) {
                    for (String n : listed) {
                        if (standsFor(seg, n)) {
                            names.add(n);
                        }
                    }
                }
                options.addAll(names);
            }
            List<String> next = new ArrayList<>();
            for (String f : forms) {
                for (String o : options) {
                    next.add(i == 0 ? o : f + "/" + o);
                }
            }
            if (next.size() > LIMIT) {
                return null;
            }
            forms = next;
        }
        return any ? forms : List.of(path);
    }

    /**
     * A long name matching {@code word} (a name, or a pattern with {@code *}) that the short name
     * could stand for, or null.
     */
    private static String representative(String word, String shortName) {
        if (word.indexOf('*') < 0 && word.indexOf('?') < 0) {
            return standsFor(shortName, word) ? word : null;
        }
        String base = shortName.substring(0, shortName.indexOf('~')).toLowerCase(Locale.ROOT);
        int dot = shortName.lastIndexOf('.');
        String ext = dot > shortName.indexOf('~') ? shortName.substring(dot + 1).toLowerCase(Locale.ROOT) : "";
        for (String fill : List.of("", base, base + (ext.isEmpty() ? "" : "." + ext), "x")) {
            int star = word.indexOf('*');
            String filled = star < 0 ? word : word.substring(0, star) + fill + word.substring(star + 1);
            String candidate = filled.replace("*", "").replace('?', 'x');
            if (WindowsGlob.of(List.of(word), null).matches(candidate) && standsFor(shortName, candidate)) {
                return candidate;
            }
        }
        return null;
    }

    /** Whether Windows could have made {@code shortName} from {@code longName}. */
    static boolean standsFor(String shortName, String longName) {
        String s = shortName.toUpperCase(Locale.ROOT);
        int tilde = s.indexOf('~');
        String shortBase = s.substring(0, tilde);
        int dot = s.lastIndexOf('.');
        String shortExt = dot > tilde ? s.substring(dot + 1) : "";
        String l = longName.toUpperCase(Locale.ROOT).replace(" ", "");
        int lead = 0;
        while (lead < l.length() && l.charAt(lead) == '.') {
            lead++;
        }
        l = l.substring(lead);
        int last = l.lastIndexOf('.');
        String longBase = clean(last < 0 ? l : l.substring(0, last).replace(".", ""));
        String longExt = clean(last < 0 ? "" : l.substring(last + 1));
        // a long name with an extension keeps (the first three letters of) it in its short name
        if (shortExt.isEmpty() ? !longExt.isEmpty() : !longExt.startsWith(shortExt)) {
            return false;
        }
        if (longBase.startsWith(shortBase)) {
            return true;
        }
        // past four collisions Windows keeps two characters and adds four hex digits of a hash
        return shortBase.length() == 6 && isHex(shortBase.substring(2)) && longBase.startsWith(shortBase.substring(0, 2));
    }

    private static String clean(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append("+,;=[]".indexOf(c) >= 0 ? '_' : c);
        }
        return sb.toString();
    }

    private static boolean isHex(String s) {
        for (char c : s.toCharArray()) {
            if (Character.digit(c, 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
