package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Part;
import io.shellgate.judge.internal.syntax.Word;
import io.shellgate.rules.Tier;

/**
 * What zsh runs that bash does not: {@code =cmd} expands to a program's path and {@code =(...)}
 * runs a command; glob qualifiers ({@code *(e:...:)}, {@code *(+func)}) run code (they do not
 * parse as bash, so they already ask).
 */
final class Zsh {

    private Zsh() {}

    static void check(Analyzer a, Command.Simple node) {
        for (Word w : node.words()) {
            if (!w.parts().isEmpty() && w.parts().getFirst() instanceof Part.Literal l && !l.quoted()
                    && l.text().startsWith("=") && l.text().length() > 1) {
                a.add(Checks.ZSH_CODE, Tier.ASK, "zsh expands " + l.text() + " (=command expansion)", w.span());
            }
        }
    }
}
