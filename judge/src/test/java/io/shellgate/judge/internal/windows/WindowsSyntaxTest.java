package io.shellgate.judge.internal.windows;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WindowsSyntaxTest {

    @Test
    void pathsAreReadAsWindowsReadsThem() {
        assertThat(WindowsPaths.absolute("C:\\Windows.\\System32 ", "c:/proj", null)).containsExactly("c:/windows/system32");
        assertThat(WindowsPaths.absolute("\\\\?\\C:\\PROGRA~1\\", "c:/proj", null)).containsExactly("c:/program files");
        assertThat(WindowsPaths.absolute("FileSystem::C:\\", "c:/proj", null)).containsExactly("c:/");
        assertThat(WindowsPaths.absolute("..\\..", "c:/proj/a", null)).containsExactly("c:/");
        assertThat(WindowsPaths.absolute("\\Windows", "d:/proj", null)).containsExactly("/windows", "d:/windows");
        assertThat(WindowsPaths.absolute("~\\x", "c:/p", "C:/Users/Me")).containsExactly("c:/users/me/x");
        assertThat(WindowsPaths.absolute("x", null, null)).isEmpty();
    }

    @Test
    void globsIgnoreCaseAndKeepStarsInsideSegments() {
        WindowsGlob g = WindowsGlob.of(List.of("?:/\\*", "?:/users/*", "~"), "C:/Users/Me");
        assertThat(g.matches("D:/*")).isTrue();
        assertThat(g.matches("c:/users/bob")).isTrue();
        assertThat(g.matches("c:/users/bob/x")).isFalse();
        assertThat(g.matches("c:/users/me")).isTrue();
        assertThat(g.matches("c:/x")).isFalse();
    }

    @Test
    void windowsArgumentsSplitAsTheCRuntimeSplitsThem() {
        assertThat(WindowsArgv.split("a \"b c\" d\\\"e \"f\"\"g\" h\\\\\"i j\"")).containsExactly("a", "b c", "d\"e", "f\"g",
                "h\\i j");
        assertThat(WindowsArgv.split(WindowsArgv.join(List.of("x y", "z")))).containsExactly("x y", "z");
    }

    @Test
    void powershellArgumentsAreAbbreviatedAndCaseInsensitive() {
        assertThat(PowerShellCli.parse(List.of("-NoP", "-ExecutionPolicy", "Bypass", "-c", "Get-Date", "x"), false))
                .isEqualTo(new PowerShellCli.Code("Get-Date x", false));
        assertThat(PowerShellCli.parse(List.of("/COMMAND", "ls"), true)).isEqualTo(new PowerShellCli.Code("ls", false));
        assertThat(PowerShellCli.parse(List.of("-enc", "RwBlAHQALQBEAGEAdABlAA=="), false))
                .isEqualTo(new PowerShellCli.Code("Get-Date", true));
        assertThat(PowerShellCli.parse(List.of("Get-Date"), true)).isEqualTo(new PowerShellCli.Code("Get-Date", false));
        assertThat(PowerShellCli.parse(List.of("x.ps1"), false)).isEqualTo(new PowerShellCli.File("x.ps1"));
        assertThat(PowerShellCli.parse(List.of("-Command", "-"), false)).isEqualTo(new PowerShellCli.Stdin(false));
        assertThat(PowerShellCli.parse(List.of("-enc", "!!"), false)).isInstanceOf(PowerShellCli.Unknown.class);
        assertThat(PowerShellCli.parse(List.of("-Bogus"), false)).isInstanceOf(PowerShellCli.Unknown.class);
    }

    @Test
    void cmdTakesTheRestOfTheLineAfterSlashC() {
        assertThat(CmdCli.parse("/d /q /c dir & ver")).isEqualTo(new CmdCli.Code("dir & ver", false));
        assertThat(CmdCli.parse("/V:ON /C \"rd /s /q C:\\\"")).isEqualTo(new CmdCli.Code("rd /s /q C:\\", true));
        assertThat(CmdCli.parse("/c \"C:\\Program Files\\x.exe\"")).isEqualTo(new CmdCli.Code("\"C:\\Program Files\\x.exe\"", false));
        assertThat(CmdCli.parse("/k")).isEqualTo(new CmdCli.Code("", false));
        assertThat(CmdCli.parse("")).isEqualTo(new CmdCli.Interactive());
        assertThat(CmdCli.parse("/z")).isInstanceOf(CmdCli.Unknown.class);
    }
}
