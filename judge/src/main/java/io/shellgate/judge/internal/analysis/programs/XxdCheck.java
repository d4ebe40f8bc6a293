package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * xxd's own option parser: an argument is an option when it starts with a dash, and which one is
 * decided by its first letter alone ({@code -autoskip}, {@code -a} and {@code -abc} are all
 * {@code -a}); options end at the first operand; the first operand is the file read and a
 * second one is a file xxd writes.
 */
public final class XxdCheck implements ProgramCheck {

    private static final Set<Character> FLAGS = Set.of('a', 'b', 'e', 'u', 'p', 'i', 'C', 'd', 'r', 'E', 'v', 'h');
    /**
     * Letters that take a value, with the rest of their long name: the value is the next word when
     * the option is the letter alone or its long name, else the rest of the word.
     */
    private static final Map<Character, String> VALUES = Map.of('c', "ols", 'g', "roup", 'o', "ffset", 's', "eek",
            'l', "en", 'n', "ame", 'R', "");

    @Override
    public List<String> custom(CheckContext c, Invocation inv, ReadOnlyCommand entry, String sub, List<Field> before,
            List<Field> args) {
        return check(c, inv, args);
    }

    static List<String> check(CheckContext a, Invocation inv, List<Field> args) {
        List<String> problems = new ArrayList<>();
        int i = 0;
        for (; i < args.size(); i++) {
            Field f = args.get(i);
            String t = f.plain();
            if (!f.isLiteral() && t.startsWith("-") || f.mayBeOption() && !f.isLiteral()) {
                problems.add("the argument " + f.display() + " is computed at run time and could be an option");
                return problems;
            }
            // xxd reads --name as -name
            String p = t.startsWith("--") && t.length() > 2 ? t.substring(1) : t;
            if (p.equals("--")) {
                i++;
                break;
            }
            if (p.length() < 2 || p.charAt(0) != '-') {
                break;
            }
            char c = p.charAt(1);
            if (c == 'c' && p.startsWith("-capitalize") || FLAGS.contains(c)) {
                continue;
            }
            if (!VALUES.containsKey(c)) {
                problems.add("the option " + t + " is not on the permitted list");
                return problems;
            }
            String rest = p.substring(2);
            // a value read as attached leaves the next word to be checked as the file; the other way
            // round would skip a word xxd reads, so "separate" is chosen only when xxd surely does
            boolean separate = rest.isEmpty() || !VALUES.get(c).isEmpty() && rest.startsWith(VALUES.get(c));
            if (separate) {
                if (i + 1 >= args.size()) {
                    problems.add("the option " + t + " needs a value");
                    return problems;
                }
                i++;
            }
        }
        List<Field> operands = args.subList(i, args.size());
        if (operands.size() > 1) {
            problems.add("a second operand (" + operands.get(1).display() + ") is a file xxd writes");
            return problems;
        }
        if (!operands.isEmpty() && !operands.getFirst().plain().equals("-")) {
            a.checkRead(operands.getFirst(), inv.scope, inv.span(), "reads");
        }
        return problems;
    }
}
