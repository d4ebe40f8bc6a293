package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.Span;
import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.rules.Tier;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reading and assigning variables and members: secret environment variables and properties,
 * provider paths written as variables, .NET methods (only those {@link PsTypes} lists as
 * computing a value go without asking), and assignments that change the session or an object.
 */
final class PsAccess {

    private static final Set<String> SCOPES = Set.of("global", "script", "local", "private", "using");

    /** Properties that hold a process's environment or a credential, whatever object they are read from. */
    private static final Set<String> SECRET_PROPERTIES = Set.of("environment", "environmentvariables", "startinfo", "password",
            "securepassword", "credential", "credentials", "connectionstring");

    private final PowerShellJudge ps;

    PsAccess(PowerShellJudge ps) {
        this.ps = ps;
    }

    /** Reading a variable: a secret environment variable, or a provider path ({@code ${c:\\x}}), asks. */
    void variable(PsAst.Variable v) {
        String name = v.name().toLowerCase(Locale.ROOT);
        int colon = name.indexOf(':');
        if (name.startsWith("env:") && ps.host.secretVariable(v.name().substring(4))) {
            ps.host.report(WindowsChecks.SECRET_VARIABLE, Tier.ASK, "reads the environment variable " + v.name().substring(4)
                    + ", whose name marks a secret", v.span());
        }
        if (colon > 0 && !SCOPES.contains(name.substring(0, colon)) && !name.startsWith("env:")) {
            // ${c:\path} reads a file, $function:x a function's code
            ps.host.report(WindowsChecks.SENSITIVE_PATH, Tier.ASK, "the variable $" + v.name() + " reads the provider path "
                    + v.name() + ", which shellgate does not check", v.span());
        }
    }

    /** Reading a property or calling a method. */
    void member(PsAst.Member m) {
        ps.expression(m.target());
        if (m.arguments() == null) {
            if (m.name() == null || SECRET_PROPERTIES.contains(m.name().toLowerCase(Locale.ROOT))) {
                ps.host.report(WindowsChecks.PRINTS_ENVIRONMENT, Tier.ASK, "reads the property " + (m.name() == null
                        ? "named at run time" : m.name()) + ", which can hold environment variables or credentials", m.span());
            }
            return;
        }
        m.arguments().forEach(ps::expression);
        PsDeletions.Deletion deletion = PsDeletions.of(m, ps);
        if (deletion != null) {
            ps.commands.rules("Remove-Item", deletion.recursive() ? List.of("-Recurse", "-Force") : List.of("-Force"),
                    deletion.paths(), m.span());
        }
        String why = ps.typing.impure(m);
        if (why != null) {
            ps.host.report(WindowsChecks.DOTNET_CALL, Tier.ASK, why + "; shellgate only allows methods that compute a value"
                    + " (it could write, delete, start a process or change the session)", m.span());
            return;
        }
        // [IO.FileInfo]::new(path) is judged as the conversion [IO.FileInfo]path is: by the path it names
        PsTypes.Member called = ps.typing.member(m);
        String path = called == null ? null : PsConversions.pathArgument(called, m.target().span().of(ps.code),
                m.arguments().isEmpty() ? null : m.arguments().getFirst(), ps);
        if (path != null) {
            ps.host.report(WindowsChecks.DOTNET_CALL, Tier.ASK, path, m.span());
        }
    }

    /** What assigning to {@code target} changes. */
    void target(PsAst.Expr target, Span span) {
        switch (target) {
            case PsAst.Variable v -> {
                String name = v.name().toLowerCase(Locale.ROOT);
                int colon = name.indexOf(':');
                String scope = colon > 0 ? name.substring(0, colon) : "";
                String bare = colon > 0 ? name.substring(colon + 1) : name;
                String state = PsState.variable(v.name());
                if (scope.equals("env")) {
                    ps.host.report(WindowsChecks.ENVIRONMENT, Tier.ASK, "sets the environment variable " + bare
                            + ", which changes what later commands and programs do", span);
                } else if (!scope.isEmpty() && !SCOPES.contains(scope)) {
                    ps.host.report(WindowsChecks.WRITES_FILE, Tier.ASK, "assigns to the provider path " + v.name()
                            + " (a file, function, alias or variable drive)", span);
                } else if (state != null) {
                    ps.host.report(WindowsChecks.SHELL_STATE, Tier.ASK, state, span);
                }
            }
            case PsAst.Member m -> {
                ps.expression(m.target());
                ps.host.report(WindowsChecks.SHELL_STATE, Tier.ASK, "assigns to the property " + m.name()
                        + ", which can change a file, a setting or a live object", span);
            }
            case PsAst.Compound c when !c.parts().isEmpty() -> {
                // $a[0] = 1 changes $a: the variable decides
                target(c.parts().getFirst(), span);
                c.parts().subList(1, c.parts().size()).forEach(ps::expression);
            }
            default -> ps.host.report(WindowsChecks.SHELL_STATE, Tier.ASK, "an assignment shellgate does not follow", span);
        }
    }
}
