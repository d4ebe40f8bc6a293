package io.shellgate.judge.internal.powershell;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * .NET calls that delete what a path names, read as the Remove-Item they amount to, so that the
 * policy's deny rules see them: {@code $ExecutionContext.InvokeProvider.Item.Remove(path, $true)},
 * {@code [IO.Directory]::Delete(path, $true)}, {@code [IO.File]::Delete(path)} and
 * {@code (Get-Item path).Delete($true)}.
 */
final class PsDeletions {

    private static final String ITEM_INTRINSICS = "system.management.automation.itemcmdletproviderintrinsics";

    /** A deletion: what it names (null entries: not known) and whether it takes everything below. */
    record Deletion(List<String> paths, boolean recursive) {}

    private PsDeletions() {}

    /** The deletion a method call makes, or null when it is not one of these. */
    static Deletion of(PsAst.Member m, PowerShellJudge ps) {
        if (m.name() == null || m.arguments() == null) {
            return null;
        }
        String name = m.name().toLowerCase(Locale.ROOT);
        List<PsAst.Expr> args = m.arguments().size() == 1 && m.arguments().getFirst() instanceof PsAst.Compound c
                && c.kind() == PsAst.Compound.Kind.ARRAY ? c.parts() : m.arguments();
        if (m.isStatic() && m.target() instanceof PsAst.TypeName t && name.equals("delete")) {
            String type = PsTypes.canonical(t.name());
            if ((type.equals("system.io.directory") || type.equals("system.io.file")) && !args.isEmpty()) {
                return new Deletion(values(args.getFirst(), ps), type.equals("system.io.directory") && isTrue(args, 1, ps));
            }
            return null;
        }
        if (m.isStatic()) {
            return null;
        }
        String target = ps.typing.of(m.target());
        if (ITEM_INTRINSICS.equals(target) && name.equals("remove") && !args.isEmpty()) {
            return new Deletion(values(args.getFirst(), ps), isTrue(args, 1, ps));
        }
        if (name.equals("delete") && m.target() instanceof PsAst.SubExpr s && ps.flows.get(s) instanceof PsFlow.Items items) {
            List<String> paths = new ArrayList<>();
            items.listings().forEach(l -> paths.add(l.children() ? l.path() + "\\*" : l.path()));
            return new Deletion(paths, isTrue(args, 0, ps));
        }
        return null;
    }

    private static List<String> values(PsAst.Expr e, PowerShellJudge ps) {
        return PsValues.values(e, ps.host, ps.assigned);
    }

    private static boolean isTrue(List<PsAst.Expr> args, int i, PowerShellJudge ps) {
        // a flag that is not $false (or 0) may be true
        if (args.size() <= i) {
            return false;
        }
        String v = PsValues.value(args.get(i), ps.host, ps.assigned);
        return v == null || !(v.equalsIgnoreCase("false") || v.equals("0") || v.isEmpty());
    }
}
