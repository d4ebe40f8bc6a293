package io.shellgate.launcher.internal.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fallback order, on simulated Unix and Windows layouts. */
class ShellResolverTest {

    private static Optional<ShellChoice> resolve(boolean windows, Map<String, String> env, Set<String> executables, String explicit) {
        return new ShellResolver(new ShellResolver.Host(env, windows, executables::contains)).resolve(explicit, null,
                "/opt/shellgate/shellgate");
    }

    private static Map<String, String> env(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void explicitChoicesComeFirstInOrder() {
        Set<String> exe = Set.of("/bin/zsh", "/bin/bash", "/usr/bin/dash", "/opt/fish");
        Map<String, String> e = env("PATH", "/bin:/usr/bin", "SHELLGATE_SHELL", "/usr/bin/dash", "SHELL", "/bin/bash");
        assertThat(resolve(false, e, exe, "/opt/fish")).get().extracting(ShellChoice::why).isEqualTo("--shell");
        ShellChoice c = resolve(false, e, exe, null).orElseThrow();
        assertThat(c.path()).isEqualTo("/usr/bin/dash");
        assertThat(c.dialect()).isEqualTo(Dialect.SH);
        assertThat(c.why()).isEqualTo("$SHELLGATE_SHELL");
    }

    @Test
    void shellIsUsedUnlessItIsShellgateItself() {
        Set<String> exe = Set.of("/bin/zsh", "/bin/bash", "/opt/shellgate/shellgate");
        ShellChoice c = resolve(false, env("PATH", "/bin", "SHELL", "/bin/bash"), exe, null).orElseThrow();
        assertThat(c.path()).isEqualTo("/bin/bash");
        assertThat(c.why()).isEqualTo("$SHELL");
        // SHELL=shellgate (an agent wrapped by shellgate): never recurse, fall back to zsh
        ShellChoice d = resolve(false, env("PATH", "/bin", "SHELL", "/opt/shellgate/shellgate"), exe, null).orElseThrow();
        assertThat(d.path()).isEqualTo("/bin/zsh");
        assertThat(d.dialect()).isEqualTo(Dialect.ZSH);
        assertThat(d.why()).isEqualTo("zsh on PATH");
    }

    @Test
    void fallsBackToZshThenBashThenSh() {
        assertThat(resolve(false, env("PATH", "/a:/b"), Set.of("/b/bash", "/a/sh"), null)).get()
                .extracting(ShellChoice::path).isEqualTo("/b/bash");
        assertThat(resolve(false, env("PATH", "/a:/b"), Set.of("/a/sh"), null)).get()
                .extracting(ShellChoice::path, ShellChoice::dialect).containsExactly("/a/sh", Dialect.SH);
        assertThat(resolve(false, env("PATH", "/a"), Set.of(), null)).isEmpty();
    }

    @Test
    void aMissingExplicitShellFallsThroughToTheNextChoice() {
        ShellChoice c = resolve(false, env("PATH", "/bin", "SHELLGATE_SHELL", "/nope/zsh", "SHELL", "/bin/bash"),
                Set.of("/bin/bash"), null).orElseThrow();
        assertThat(c.why()).isEqualTo("$SHELL");
    }

    @Test
    void aShellAskedForWithShellIsThatShellOrNone() {
        Map<String, String> e = env("PATH", "/bin", "SHELL", "/bin/bash");
        assertThat(resolve(false, e, Set.of("/bin/bash"), "/nope/zsh")).isEmpty();
        assertThat(resolve(false, e, Set.of("/bin/bash", "/bin/zsh"), "zsh")).get().extracting(ShellChoice::path).isEqualTo("/bin/zsh");
    }

    @Test
    void thePolicysShellComesAfterShellgateShellAndBeforeShell() {
        Set<String> exe = Set.of("/bin/bash", "/bin/zsh", "/bin/dash");
        ShellResolver r = new ShellResolver(new ShellResolver.Host(env("PATH", "/bin", "SHELL", "/bin/bash"), false, exe::contains));
        assertThat(r.resolve(null, "dash", "/opt/shellgate/shellgate")).get()
                .extracting(ShellChoice::path, ShellChoice::why).containsExactly("/bin/dash", "the policy's shell setting");
        ShellResolver withEnv = new ShellResolver(new ShellResolver.Host(env("PATH", "/bin", "SHELLGATE_SHELL", "zsh"), false,
                exe::contains));
        assertThat(withEnv.resolve(null, "dash", "/opt/shellgate/shellgate")).get().extracting(ShellChoice::path).isEqualTo("/bin/zsh");
    }

    @Test
    void windowsPrefersGitBashFoundFromGitOnPath() {
        Set<String> exe = Set.of("D:\\Tools\\Git\\cmd\\git.exe", "D:\\Tools\\Git\\bin\\bash.exe",
                "C:\\Program Files\\PowerShell\\7\\pwsh.exe", "C:\\Windows\\System32\\cmd.exe");
        Map<String, String> e = env("Path", "D:\\Tools\\Git\\cmd;C:\\Program Files\\PowerShell\\7", "ComSpec",
                "C:\\Windows\\System32\\cmd.exe");
        ShellChoice c = resolve(true, e, exe, null).orElseThrow();
        assertThat(c.path()).isEqualTo("D:\\Tools\\Git\\bin\\bash.exe");
        assertThat(c.dialect()).isEqualTo(Dialect.BASH);
        assertThat(c.why()).startsWith("Git Bash");
    }

    @Test
    void windowsFindsGitBashInTheStandardLocation() {
        Set<String> exe = Set.of("C:\\Program Files\\Git\\bin\\bash.exe", "C:\\Windows\\System32\\cmd.exe");
        ShellChoice c = resolve(true, env("PATH", "C:\\Windows", "ProgramFiles", "C:\\Program Files"), exe, null).orElseThrow();
        assertThat(c.path()).isEqualTo("C:\\Program Files\\Git\\bin\\bash.exe");
    }

    @Test
    void windowsThenPwshThenPowershellThenComSpec() {
        Map<String, String> e = env("PATH", "C:\\Program Files\\PowerShell\\7;C:\\Windows\\System32\\WindowsPowerShell\\v1.0",
                "ComSpec", "C:\\Windows\\System32\\cmd.exe");
        Set<String> all = Set.of("C:\\Program Files\\PowerShell\\7\\pwsh.exe",
                "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe", "C:\\Windows\\System32\\cmd.exe");
        assertThat(resolve(true, e, all, null)).get().extracting(ShellChoice::path, ShellChoice::dialect)
                .containsExactly("C:\\Program Files\\PowerShell\\7\\pwsh.exe", Dialect.POWERSHELL);
        Set<String> noPwsh = Set.of("C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
                "C:\\Windows\\System32\\cmd.exe");
        assertThat(resolve(true, e, noPwsh, null)).get().extracting(ShellChoice::dialect).isEqualTo(Dialect.POWERSHELL);
        assertThat(resolve(true, e, Set.of("C:\\Windows\\System32\\cmd.exe"), null)).get()
                .extracting(ShellChoice::path, ShellChoice::dialect, ShellChoice::why)
                .containsExactly("C:\\Windows\\System32\\cmd.exe", Dialect.CMD, "%ComSpec%");
    }

    @Test
    void windowsEnvironmentNamesIgnoreCase() {
        Set<String> exe = Set.of("C:\\Windows\\System32\\cmd.exe");
        assertThat(resolve(true, env("COMSPEC", "C:\\Windows\\System32\\cmd.exe"), exe, null)).isPresent();
    }

    @Test
    void dialectFollowsTheShellsName() {
        assertThat(ShellResolver.dialect("/usr/bin/zsh")).isEqualTo(Dialect.ZSH);
        assertThat(ShellResolver.dialect("/bin/bash")).isEqualTo(Dialect.BASH);
        assertThat(ShellResolver.dialect("/bin/dash")).isEqualTo(Dialect.SH);
        assertThat(ShellResolver.dialect("C:\\x\\PWSH.EXE")).isEqualTo(Dialect.POWERSHELL);
        assertThat(ShellResolver.dialect("C:\\Windows\\System32\\cmd.exe")).isEqualTo(Dialect.CMD);
    }
}
