package io.shellgate.launcher.internal.pty;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The PowerShell integration's generated text. PowerShell is not installed on the build machines,
 * so the script is checked as text here and its protocol in {@link PowerShellTranscriptTest}.
 */
class PowerShellIntegrationTest {

    private final String script = PowerShellIntegration.script(50123, "ab".repeat(32));

    @Test
    void reachesTheProxysPortWithTheToken() {
        assertThat(script).contains("$global:__sgPort = 50123\n", "$global:__sgToken = '" + "ab".repeat(32) + "'\n",
                "[System.Net.Sockets.TcpClient]::new('127.0.0.1', $global:__sgPort)");
    }

    @Test
    void everyKeyThatAcceptsALineGoesThroughTheCheck() {
        assertThat(script).contains("Set-PSReadLineKeyHandler -Chord Enter -BriefDescription shellgate -ScriptBlock { __sgAccept 'line' }",
                "Set-PSReadLineKeyHandler -Chord Ctrl+j -BriefDescription shellgate -ScriptBlock { __sgAccept 'line' }",
                "Set-PSReadLineKeyHandler -Chord Ctrl+o -BriefDescription shellgate -ScriptBlock { __sgAccept 'next' }");
    }

    @Test
    void sendsTheExactBufferTheLocationAndTheEnvironment() {
        assertThat(script).contains("[Microsoft.PowerShell.PSConsoleReadLine]::GetBufferState([ref] $line, [ref] $cursor)",
                "__sgSend (@('check', $seq, $line, (Get-Location).ProviderPath) + $vars)",
                "Get-ChildItem Env: | ForEach-Object { $_.Name + '=' + $_.Value }");
    }

    @Test
    void acceptsKeepsEditingOrRevertsAsTheProxyReplies() {
        assertThat(script).contains("\"$seq run\" {", "[Microsoft.PowerShell.PSConsoleReadLine]::AcceptLine()",
                "\"$seq more\" { [Microsoft.PowerShell.PSConsoleReadLine]::Insert(\"`n\") }",
                "[Microsoft.PowerShell.PSConsoleReadLine]::AddToHistory($line)",
                "[Microsoft.PowerShell.PSConsoleReadLine]::RevertLine()");
    }

    @Test
    void incompleteInputGetsANewLineWithoutAsking() {
        assertThat(script).contains("[System.Management.Automation.Language.Parser]::ParseInput($line, [ref] $null, [ref] $errors)",
                "if ($errors | Where-Object { $_.IncompleteInput }) {");
    }

    @Test
    void reportsEachPromptAndKeepsTheUsersPrompt() {
        assertThat(script).contains("$global:__sgUserPrompt = $function:prompt", "$null = __sgSend @('prompt')",
                "& $global:__sgUserPrompt");
    }

    @Test
    void isDotSourcedAfterTheProfileWhichPowerShellLoadsItself() {
        assertThat(new PowerShellIntegration().command("pwsh", Path.of("/run/it's"), false))
                .containsExactly("pwsh", "-NoLogo", "-NoExit", "-Command", ". '/run/it''s/shellgate.ps1'");
    }

    @Test
    void cmdShowsItsDirectoryInAMarkBeforeTheUsersPrompt() {
        CmdIntegration cmd = new CmdIntegration();
        assertThat(cmd.env(Path.of("/x"), java.util.Map.of())).containsEntry("PROMPT", "$E]9;9;$P$E\\$P$G");
        assertThat(cmd.env(Path.of("/x"), java.util.Map.of("PROMPT", "$T $P$G"))).containsEntry("PROMPT", "$E]9;9;$P$E\\$T $P$G");
    }
}
