package io.shellgate.judge.internal.powershell;

import java.util.Locale;
import java.util.Set;

/**
 * Conversions ({@code [T]value}, {@code value -as [T]}): PowerShell converts by calling T's
 * {@code Parse} method or its constructor, so {@code [IO.StreamWriter]'x'} truncates a file and
 * {@code [Net.Sockets.UdpClient]4444} opens a port. A conversion is judged as the call it makes,
 * by {@link PsTypes}' one table of members ({@link PsTypes#conversion}): it goes without asking
 * only where that table lists the type's parser or constructor as computing a value; a path made
 * into a {@code FileInfo} or {@code DirectoryInfo}, by a cast or by {@code ::new}, is judged as
 * the path it names.
 */
final class PsConversions {

    /**
     * The attributes of advanced functions and their parameters that run no code of their own:
     * declarations the binder reads ({@code [CmdletBinding()]}, {@code [Parameter(...)]}) and
     * validations with constant arguments. {@code [ValidateScript({...})]} and the like run a
     * script block at each call, and ask.
     */
    private static final Set<String> ATTRIBUTES = Set.of("cmdletbinding", "parameter", "alias", "validateset", "validatenotnull",
            "validatenotnullorempty", "validaterange", "validatelength", "validatecount", "validatepattern", "allownull",
            "allowemptystring", "allowemptycollection", "supportswildcards");

    private PsConversions() {}

    /** Whether a bracketed name is an attribute ({@code [Parameter(Mandatory)]}) rather than a type. */
    static boolean isAttribute(String name) {
        return name.contains("(");
    }

    /** Why an attribute asks, or null when it is on the list and its arguments are constants. */
    static String attribute(String name) {
        int paren = name.indexOf('(');
        String args = name.substring(paren + 1, name.endsWith(")") ? name.length() - 1 : name.length())
                .replaceAll("(?i)\\$(true|false|null)\\b", "");
        boolean constant = args.chars().noneMatch(c -> "{}$()[]@`".indexOf(c) >= 0);
        if (name.endsWith(")") && constant && ATTRIBUTES.contains(name.substring(0, paren).strip().toLowerCase(Locale.ROOT))) {
            return null;
        }
        return "the attribute [" + name + "] is not one shellgate knows to run no code (validation script blocks and"
                + " computed arguments run at each call)";
    }

    /** Why the conversion asks, or null when what it runs only computes a value. */
    static String why(PsAst.Compound cast, PowerShellJudge ps) {
        if (!(cast.parts().getFirst() instanceof PsAst.TypeName t)) {
            return "converts to a type named at run time (" + cast.parts().getFirst().span().of(ps.code) + ")";
        }
        if (isAttribute(t.name())) {
            // [Parameter(...)]$x in a param( ) block: the attribute is checked where the walk meets it
            return null;
        }
        PsTypes.Member runs = PsTypes.conversion(PsTypes.canonical(t.name()));
        if (runs == null) {
            return "converts to [" + t.name() + "], which runs that type's constructor or parser (it can open files, ports or"
                    + " connections); shellgate only allows conversions whose parser or constructor is on its list of"
                    + " members that only compute a value";
        }
        return cast.parts().size() > 1 ? pathArgument(runs, t.name(), cast.parts().get(1), ps) : null;
    }

    /**
     * Why a member whose first argument is a path it reaches asks (a share, or a path computed at
     * run time, which could be one), or null when it does not take a path or the path is local.
     */
    static String pathArgument(PsTypes.Member member, String type, PsAst.Expr argument, PowerShellJudge ps) {
        if (!member.pathArgument()) {
            return null;
        }
        String path = argument == null ? null : PsValues.value(argument, ps.host);
        if (path != null && !path.startsWith("\\\\") && !path.startsWith("//")) {
            return null;
        }
        return "makes a " + type + " of " + (path == null ? "a path computed at run time" : "the share " + path)
                + ", whose properties reach it";
    }
}
