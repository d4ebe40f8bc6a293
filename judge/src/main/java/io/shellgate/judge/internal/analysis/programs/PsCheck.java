package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;
import java.util.List;
import java.util.Set;

/**
 * ps (procps) takes UNIX options ({@code -ef}), BSD options without a dash ({@code aux}) and GNU
 * long options. The BSD letter {@code e} prints every process's environment after its command
 * line, which holds other programs' tokens; so do the UNIX letter {@code E} of BSD and macOS ps
 * ({@code ps -E}) and the format keywords naming the environment ({@code -o environ}). ps also
 * rereads a lone dashed word that fails as UNIX options as BSD ones ({@code ps -auxe} when there
 * is no user {@code xe}).
 */
public final class PsCheck implements ProgramCheck {

    private static final String UNIX_VALUES = "CGgpqstuUoOD";
    private static final String BSD_VALUES = "oOpqtUk";
    private static final Set<String> LONG_VALUES = Set.of("--Group", "--group", "--pid", "--ppid", "--quick-pid", "--sid",
            "--tty", "--user", "--User", "--format", "--sort", "--cols", "--columns", "--width", "--rows", "--lines",
            "--help", "--date-format");

    @Override
    public void after(CheckContext a, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {
        String problem = problem(inv.argv.subList(1, inv.argv.size()));
        if (problem != null) {
            a.add(Checks.PRINTS_ENVIRONMENT, Tier.ASK, problem, inv.span());
        }
    }

    /** Why these arguments make ps print environments (or cannot be told not to); null when they do not. */
    static String problem(List<Field> args) {
        if (args.size() == 1 && args.getFirst().isLiteral()) {
            String t = args.getFirst().plain();
            if (t.startsWith("-") && !t.startsWith("--") && t.indexOf('e') > 0
                    && t.chars().skip(1).anyMatch(c -> UNIX_VALUES.indexOf(c) >= 0)) {
                return "ps may read " + t + " as the BSD options " + t.substring(1) + ", whose e prints environments";
            }
        }
        for (int i = 0; i < args.size(); i++) {
            Field f = args.get(i);
            if (!f.isLiteral()) {
                return "the argument " + f.display() + " is computed at run time";
            }
            String t = f.plain();
            if (t.startsWith("--")) {
                String name = t.contains("=") ? t.substring(0, t.indexOf('=')) : t;
                if (name.equals("--format")) {
                    String format = t.contains("=") ? t.substring(t.indexOf('=') + 1) : i + 1 < args.size() ? args.get(i + 1).plain() : "";
                    String p = format(format, i + 1 < args.size() && !t.contains("=") ? args.get(i + 1) : f);
                    if (p != null) {
                        return p;
                    }
                }
                if (LONG_VALUES.contains(t)) {
                    i++;
                }
                continue;
            }
            boolean unix = t.startsWith("-");
            String letters = unix ? t.substring(1) : t;
            for (int j = 0; j < letters.length(); j++) {
                char c = letters.charAt(j);
                if (!unix && c == 'e' || unix && c == 'E') {
                    return "ps " + t + " prints the environment of every process it lists";
                }
                if ((unix ? UNIX_VALUES : BSD_VALUES).indexOf(c) >= 0) {
                    Field value = f;
                    String text = letters.substring(j + 1);
                    if (j == letters.length() - 1) {
                        i++;
                        value = i < args.size() ? args.get(i) : Field.literal("");
                        text = value.plain();
                    }
                    if (c == 'o' || c == 'O') {
                        if (!value.isLiteral()) {
                            return "the format " + value.display() + " is computed at run time";
                        }
                        String p = format(text, value);
                        if (p != null) {
                            return p;
                        }
                    }
                    break;
                }
            }
        }
        return null;
    }

    /**
     * Why an output format prints environments: a keyword naming them ({@code environ}, {@code env},
     * {@code environment}; a keyword is what precedes {@code =header} or {@code :width}).
     */
    private static String format(String format, Field shown) {
        for (String item : format.replace(' ', ',').replace('\t', ',').replace('\n', ',').split(",")) {
            String keyword = item.contains("=") ? item.substring(0, item.indexOf('=')) : item;
            keyword = keyword.contains(":") ? keyword.substring(0, keyword.indexOf(':')) : keyword;
            if (keyword.toLowerCase(java.util.Locale.ROOT).startsWith("env")) {
                return "the format " + shown.display() + " prints the environment of every process it lists (" + keyword + ")";
            }
        }
        return null;
    }
}
