package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.CommandJudge;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.List;
import java.util.Set;

/** {@code unzip -l} and {@code zipinfo}: archive listings. unzip's other modes extract files. */
public final class UnzipCheck implements ProgramCheck {

    private static final Set<Character> UNZIP_LETTERS = Set.of('l', 'v', 't', 'q', 'z', 'C', 'M', 's', '1', '2', 'h', 'm',
            'Z');

    @Override
    public List<String> custom(CheckContext a, Invocation inv, ReadOnlyCommand entry, String sub, List<Field> before,
            List<Field> args) {
        String program = CommandJudge.basename(inv.argv.getFirst().plain());
        boolean listing = program.equals("zipinfo");
        Field archive = null;
        for (Field f : args) {
            if (!f.isLiteral()) {
                return List.of("the argument " + f.display() + " is computed at run time");
            }
            String t = f.plain();
            if (archive == null && t.startsWith("-") && t.length() > 1) {
                for (char c : t.substring(1).toCharArray()) {
                    if (!UNZIP_LETTERS.contains(c)) {
                        return List.of("the option -" + c + " is not on the permitted list");
                    }
                    listing |= c == 'l' || c == 'v' || c == 't' || c == 'Z' || c == 'z';
                }
            } else if (archive == null) {
                archive = f;
            } else if (t.equals("-d") || t.startsWith("-") && !t.equals("-x")) {
                return List.of("unzip " + t + " after the archive is not on the permitted list");
            }
        }
        if (!listing) {
            return List.of(program + " without -l, -v, -t or -Z extracts files");
        }
        if (archive != null) {
            a.checkRead(archive, inv.scope, inv.span(), "reads");
        }
        return List.of();
    }
}
