package io.shellgate.launcher.internal.wrap;

import java.util.List;
import java.util.Set;

/** The programs {@code wrap} stands in front of: shells it judges, and shells it cannot judge. */
final class KnownShells {

    /** Shells whose command lines the judge reads (bash, zsh, sh and their kin, PowerShell). */
    static final List<String> JUDGED = List.of("bash", "rbash", "sh", "dash", "zsh", "ksh", "ksh93", "mksh", "lksh",
            "pdksh", "posh", "yash", "pwsh", "pwsh-preview", "powershell");

    /** Shells whose language the judge does not read: started by the agent, they are refused. */
    static final List<String> UNJUDGED = List.of("fish", "csh", "tcsh", "nu", "elvish", "xonsh", "rc", "es", "oil", "osh",
            "ysh", "ion");

    /** Directories searched besides the agent's PATH. */
    static final List<String> SYSTEM_DIRS = List.of("/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin",
            "/usr/local/sbin", "/opt/homebrew/bin");

    private static final Set<String> UNJUDGED_SET = Set.copyOf(UNJUDGED);

    private KnownShells() {}

    static boolean judged(String name) {
        return !UNJUDGED_SET.contains(name);
    }
}
