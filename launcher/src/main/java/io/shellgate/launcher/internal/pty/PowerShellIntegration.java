package io.shellgate.launcher.internal.pty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * PowerShell (pwsh or Windows PowerShell, with PSReadLine): started with {@code -NoExit -Command}
 * dot-sourcing a script of ours after the user's profile, which PowerShell loads itself. The
 * script sets PSReadLine key handlers for Enter (and the other keys that accept a line) that send
 * the exact buffer, the current location and the environment to the proxy over a loopback TCP
 * port with a secret token, and accept, keep editing or revert the line as the proxy replies. A
 * buffer PowerShell's own parser finds incomplete gets a new line without asking the proxy; the
 * whole is judged when it is complete.
 */
public final class PowerShellIntegration implements Integration {

    static final String SCRIPT = """
            # shellgate: the PTY proxy's integration for PowerShell. Generated; the user's profile is loaded by PowerShell itself.
            $global:__sgPort = %1$d
            $global:__sgToken = '%2$s'
            $global:__sgSeq = 0
            function global:__sgSend([string[]] $fields) {
                $client = [System.Net.Sockets.TcpClient]::new('127.0.0.1', $global:__sgPort)
                try {
                    $stream = $client.GetStream()
                    $text = ((@($global:__sgToken) + $fields + @([string][char]0x1e)) | ForEach-Object { $_ + [char]0 }) -join ''
                    $bytes = [System.Text.Encoding]::UTF8.GetBytes($text)
                    $stream.Write($bytes, 0, $bytes.Length)
                    $client.Client.Shutdown([System.Net.Sockets.SocketShutdown]::Send)
                    return [System.IO.StreamReader]::new($stream, [System.Text.Encoding]::UTF8).ReadLine()
                } finally {
                    $client.Dispose()
                }
            }
            function global:__sgAccept([string] $how) {
                $line = $null
                $cursor = $null
                [Microsoft.PowerShell.PSConsoleReadLine]::GetBufferState([ref] $line, [ref] $cursor)
                $errors = $null
                $null = [System.Management.Automation.Language.Parser]::ParseInput($line, [ref] $null, [ref] $errors)
                if ($errors | Where-Object { $_.IncompleteInput }) {
                    [Microsoft.PowerShell.PSConsoleReadLine]::Insert("`n")
                    return
                }
                $global:__sgSeq++
                $seq = [string] $global:__sgSeq
                $vars = Get-ChildItem Env: | ForEach-Object { $_.Name + '=' + $_.Value }
                $reply = __sgSend (@('check', $seq, $line, (Get-Location).ProviderPath) + $vars)
                if ($reply -eq "$seq show") {
                    [Console]::WriteLine()
                    $reply = __sgSend @('shown', $seq)
                }
                switch ($reply) {
                    "$seq run" {
                        if ($how -eq 'next') { [Microsoft.PowerShell.PSConsoleReadLine]::AcceptAndGetNext() }
                        else { [Microsoft.PowerShell.PSConsoleReadLine]::AcceptLine() }
                    }
                    "$seq more" { [Microsoft.PowerShell.PSConsoleReadLine]::Insert("`n") }
                    default {
                        [Microsoft.PowerShell.PSConsoleReadLine]::AddToHistory($line)
                        [Microsoft.PowerShell.PSConsoleReadLine]::RevertLine()
                        [Microsoft.PowerShell.PSConsoleReadLine]::AcceptLine()
                    }
                }
            }
            Set-PSReadLineKeyHandler -Chord Enter -BriefDescription shellgate -ScriptBlock { __sgAccept 'line' }
            Set-PSReadLineKeyHandler -Chord Ctrl+j -BriefDescription shellgate -ScriptBlock { __sgAccept 'line' }
            Set-PSReadLineKeyHandler -Chord Ctrl+o -BriefDescription shellgate -ScriptBlock { __sgAccept 'next' }
            $global:__sgUserPrompt = $function:prompt
            function global:prompt {
                $null = __sgSend @('prompt')
                & $global:__sgUserPrompt
            }
            """;

    private TcpChannel channel;

    @Override
    public HookChannel channel(Path dir) throws IOException {
        channel = new TcpChannel();
        return channel;
    }

    @Override
    public void install(Path dir) throws IOException {
        if (channel == null) {
            throw new IllegalStateException("the channel is made before the script that reaches it");
        }
        Files.writeString(dir.resolve("shellgate.ps1"), script(channel.port(), channel.token()), StandardCharsets.UTF_8);
    }

    static String script(int port, String token) {
        return SCRIPT.formatted(port, token);
    }

    @Override
    public List<String> command(String shell, Path dir, boolean login) {
        String path = dir.resolve("shellgate.ps1").toString().replace("'", "''");
        return List.of(shell, "-NoLogo", "-NoExit", "-Command", ". '" + path + "'");
    }

    @Override
    public Map<String, String> env(Path dir, Map<String, String> userEnv) {
        return Map.of();
    }
}
