package io.shellgate.judge.internal.powershell;

import java.util.Locale;
import java.util.Set;

/**
 * What outlives the line in the PowerShell session: variables of the global or script scope, the
 * automatic and preference variables (by assignment or named by {@code -OutVariable} and the
 * other common parameters), and functions that are global or take the name of a command that
 * exists ({@code prompt}, a cmdlet, an alias, a program).
 */
final class PsState {

    /** Preference variables: they change how later commands run. */
    private static final Set<String> PREFERENCES = Set.of("confirmpreference", "debugpreference", "erroractionpreference",
            "errorview", "formatenumerationlimit", "informationpreference", "logcommandhealthevent", "logcommandlifecycleevent",
            "logenginehealthevent", "logenginelifecycleevent", "logproviderhealthevent", "logproviderlifecycleevent",
            "maximumhistorycount", "ofs", "outputencoding", "progresspreference", "psdefaultparametervalues", "psemailserver",
            "psmoduleautoloadingpreference", "psnativecommandargumentpassing", "psnativecommanduseerroractionpreference",
            "pssessionapplicationname", "pssessionconfigurationname", "pssessionoption", "psstyle", "transcript",
            "verbosepreference", "warningpreference", "whatifpreference", "psmodulepath", "executioncontext", "env");
    /** Automatic variables the session keeps (setting $_, $Matches or $LASTEXITCODE is harmless and not here). */
    private static final Set<String> AUTOMATIC = Set.of("profile", "pshome", "home", "pwd", "host", "psversiontable", "error",
            "shellid", "psculture", "psuiculture", "nestedpromptlevel", "pscommandpath", "psscriptroot", "myinvocation",
            "psboundparameters", "pscmdlet", "stacktrace", "consolefilename", "enabledexperimentalfeatures", "iscoreclr",
            "islinux", "ismacos", "iswindows", "psedition", "true", "false", "pid", "event", "eventargs", "sender");
    /** Functions PowerShell defines, which a line may replace for the rest of the session. */
    private static final Set<String> FUNCTIONS = Set.of("prompt", "tabexpansion2", "psconsolehostreadline", "clear-host",
            "help", "mkdir", "more", "oss", "pause", "cd..", "cd\\", "cd~", "exec", "importsystemmodules", "get-verb");

    private PsState() {}

    /** Why setting the variable {@code written} (with its scope) changes the session, or null. */
    static String variable(String written) {
        String shown = written.startsWith("+") ? written.substring(1) : written;
        String name = shown.toLowerCase(Locale.ROOT);
        int colon = name.indexOf(':');
        String scope = colon > 0 ? name.substring(0, colon) : "";
        String bare = colon > 0 ? name.substring(colon + 1) : name;
        if (scope.equals("global") || scope.equals("script")) {
            return "sets $" + shown + ", which outlives the line in the " + scope + " scope of the session";
        }
        String plain = shown.substring(colon + 1);
        if (PREFERENCES.contains(bare)) {
            return "sets $" + plain + ", a preference variable, which changes how PowerShell runs later commands";
        }
        return AUTOMATIC.contains(bare) ? "sets $" + plain + ", an automatic variable the session relies on" : null;
    }

    /**
     * Why defining the function {@code written} changes the session, or null.
     *
     * @param command whether a command of that name exists (a cmdlet, an alias, a program)
     */
    static String function(String written, boolean command) {
        String name = written.toLowerCase(Locale.ROOT);
        int colon = name.indexOf(':');
        String scope = colon > 0 ? name.substring(0, colon) : "";
        String bare = colon > 0 ? name.substring(colon + 1) : name;
        if (scope.equals("global") || scope.equals("script")) {
            return "defines the function " + written + " in the " + scope + " scope, where it outlives the line";
        }
        if (FUNCTIONS.contains(bare) || command) {
            return "defines the function " + written.substring(colon + 1) + ", which takes the place of the command of that name for the rest of"
                    + " the session";
        }
        return null;
    }
}
