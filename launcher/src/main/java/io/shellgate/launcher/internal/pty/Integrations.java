package io.shellgate.launcher.internal.pty;

import io.shellgate.launcher.internal.shell.ShellChoice;

/** The integration for a shell, by its dialect: Git Bash is bash; a plain sh has no line editor to hook. */
final class Integrations {

    private Integrations() {}

    static Integration forShell(ShellChoice shell) {
        return switch (shell.dialect()) {
            case BASH -> new BashIntegration();
            case ZSH -> new ZshIntegration();
            case POWERSHELL -> new PowerShellIntegration();
            case CMD -> new CmdIntegration();
            case SH -> null;
        };
    }
}
