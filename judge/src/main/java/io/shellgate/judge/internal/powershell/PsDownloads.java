package io.shellgate.judge.internal.powershell;

import java.util.List;

/**
 * Whether code may produce content from the network: a downloading cmdlet or program, a web
 * client type, or a download method, anywhere inside it.
 */
final class PsDownloads {

    private PsDownloads() {}

    static boolean in(List<PsAst.Statement> statements) {
        for (PsAst.Statement s : statements) {
            if (in(s)) {
                return true;
            }
        }
        return false;
    }

    static boolean in(PsAst.Statement statement) {
        return switch (statement) {
            case PsAst.Pipeline p -> p.elements().stream().anyMatch(PsDownloads::in);
            case PsAst.Assignment a -> in(a.value());
            case PsAst.Block b -> b.expressions().stream().anyMatch(PsDownloads::in) || b.bodies().stream().anyMatch(PsDownloads::in);
            case PsAst.FunctionDef f -> false;
        };
    }

    static boolean in(PsAst.Element element) {
        return switch (element) {
            case PsAst.ExprElement e -> in(e.expr());
            case PsAst.CommandCall c -> {
                if (c.name() instanceof PsAst.Literal l) {
                    String cmdlet = PsNames.cmdlet(l.value());
                    String base = PsNative.baseName(l.value());
                    if (PsDotNet.downloader(cmdlet != null ? cmdlet : base)) {
                        yield true;
                    }
                }
                if (in(c.name())) {
                    yield true;
                }
                for (PsAst.Arg a : c.args()) {
                    if (a instanceof PsAst.Value v && in(v.value()) || a instanceof PsAst.Param p && p.value() != null && in(p.value())) {
                        yield true;
                    }
                }
                yield false;
            }
        };
    }

    static boolean in(PsAst.Expr e) {
        return switch (e) {
            case PsAst.Literal l -> PsDotNet.downloads(l.value().strip());
            case PsAst.Expandable x -> x.parts().stream().anyMatch(PsDownloads::in);
            case PsAst.Variable v -> false;
            case PsAst.SubExpr s -> in(s.statements());
            case PsAst.ScriptBlock b -> in(b.statements());
            case PsAst.TypeName t -> PsDotNet.downloads(t.name());
            case PsAst.Member m -> PsDotNet.downloads(m.name()) || in(m.target())
                    || m.arguments() != null && m.arguments().stream().anyMatch(PsDownloads::in);
            case PsAst.Compound c -> c.parts().stream().anyMatch(PsDownloads::in);
        };
    }
}
