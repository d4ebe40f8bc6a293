package io.shellgate.judge.internal.analysis.programs;

import com.google.re2j.Pattern;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.CommandJudge;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;
import java.util.List;

/** {@code npm view SPEC}: SPEC must be a registry package name, and the project's {@code .npmrc} asks. */
public final class NpmViewCheck implements ProgramCheck {

    /** A registry package name, with an optional version or tag: not a path, URL, git or tarball spec. */
    private static final Pattern PACKAGE = Pattern.compile(
            "(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*(?:@[A-Za-z0-9._~^<>=| -]+)?");

    @Override
    public void after(CheckContext a, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {
        String program = CommandJudge.basename(inv.argv.getFirst().plain());
        for (int i = 0; i < Math.min(1, parsed.operands().size()); i++) {
            Field spec = parsed.operands().get(i);
            if (!spec.isLiteral() || !PACKAGE.matcher(spec.plain()).matches()) {
                a.add(Checks.NOT_READ_ONLY, Tier.ASK, "npm view " + spec.display() + " is not a registry package name"
                        + " (a path, URL or git repository makes npm read or run other things)", inv.span());
            }
        }
        ProjectConfigCheck.project(a, inv, program, List.of(".npmrc"), "it can name another registry, or a git program npm runs");
    }
}
