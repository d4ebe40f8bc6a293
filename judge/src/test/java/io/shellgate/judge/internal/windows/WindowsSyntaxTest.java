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

    @Test
    void pathsSayWhatKindOfPlaceTheyNameAndLoseTheirStreams() {
        for (String share : List.of("\\\\host\\share\\x", "//host/share", "\\\\?\\UNC\\host\\share", "FileSystem::\\\\host\\share",
                "Microsoft.PowerShell.Core\\FileSystem::\\\\h\\s")) {
            assertThat(WindowsPaths.parse(share, true).kind()).as(share).isEqualTo(WindowsPaths.Kind.NETWORK);
        }
        assertThat(WindowsPaths.parse("\\\\.\\pipe\\x", true).kind()).isEqualTo(WindowsPaths.Kind.DEVICE);
        assertThat(WindowsPaths.parse("\\\\?\\GLOBALROOT\\Device\\x", false).kind()).isEqualTo(WindowsPaths.Kind.DEVICE);
        assertThat(WindowsPaths.parse("\\\\?\\C:\\x", false)).isEqualTo(new WindowsPaths.Parsed(WindowsPaths.Kind.FILE, "C:/x", null));
        assertThat(WindowsPaths.parse("Env:GITHUB_TOKEN", true).drive()).isEqualTo("env");
        assertThat(WindowsPaths.parse("Env:GITHUB_TOKEN", false)).isEqualTo(new WindowsPaths.Parsed(WindowsPaths.Kind.FILE, "Env", null));
        assertThat(WindowsPaths.parse("Registry::HKEY_CURRENT_USER\\Software", true))
                .isEqualTo(new WindowsPaths.Parsed(WindowsPaths.Kind.DRIVE, "hkcu:/Software", "hkcu"));
        assertThat(WindowsPaths.parse("C:\\x\\id_rsa::$DATA", false).path()).isEqualTo("C:/x/id_rsa");
        assertThat(WindowsPaths.parse(".ssh::$INDEX_ALLOCATION\\id_rsa", true).path()).isEqualTo(".ssh/id_rsa");
        assertThat(WindowsPaths.parse("ab:s:$DATA", false).path()).isEqualTo("ab");
        assertThat(WindowsPaths.parse("a:s", false).path()).isEqualTo("a:s");
        assertThat(WindowsPaths.located("C:x", "d:/p", null, true)).isEmpty();
        assertThat(WindowsPaths.located("C:x", "C:/p", null, true)).containsExactly("C:/p/x");
        assertThat(WindowsPaths.located("x", "Env:/", null, true)).containsExactly("Env:/x");
    }

    @Test
    void shortNamesStandForTheLongNamesWindowsMakesThemFrom() {
        assertThat(ShortNames.standsFor("SSH~1", ".ssh")).isTrue();
        assertThat(ShortNames.standsFor("CREDEN~1", "credentials")).isTrue();
        assertThat(ShortNames.standsFor("ID_RSA~1.PUB", "id_rsa.pub")).isTrue();
        assertThat(ShortNames.standsFor("ID_RSA~1", "id_rsa.pub")).isFalse();
        assertThat(ShortNames.standsFor("ENV~1.LOC", ".env.local")).isTrue();
        assertThat(ShortNames.standsFor("SS4F2A~1", ".ssh")).isTrue();
        assertThat(ShortNames.standsFor("PROGRA~1", "Program Files")).isTrue();
        assertThat(ShortNames.standsFor("AWS~1", ".ssh")).isFalse();
        assertThat(ShortNames.isShort("SSH~1")).isTrue();
        assertThat(ShortNames.isShort("a~b")).isFalse();
        assertThat(ShortNames.isShort("x~1.toolong")).isFalse();
        assertThat(ShortNames.expand("c:/users/bob/SSH~1/ID_RSA~1", List.of(".ssh", "id_rsa*", ".env"), d -> null))
                .contains("c:/users/bob/.ssh/id_rsa").doesNotContain("c:/users/bob/.env/id_rsa");
        assertThat(ShortNames.expand("c:/users/bob/x/PROJEC~1", List.of(".ssh"), d -> d.endsWith("/x") ? List.of("project one") : null))
                .containsExactly("c:/users/bob/x/PROJEC~1", "c:/users/bob/x/project one");
    }

    @Test
    void wildcardsMatchAsTheFileSystemMatches() {
        assertThat(Wildcards.matches("*.md", "README.MD", true)).isTrue();
        assertThat(Wildcards.matches("*", ".env", true)).isTrue();
        assertThat(Wildcards.matches("*.htm", "index.html", false)).isTrue();
        assertThat(Wildcards.matches("[l]ink.txt", "link.txt", true)).isTrue();
        assertThat(Wildcards.matches("[l]ink*", "[l]ink.txt", false)).isTrue();
        assertThat(Wildcards.expand("/r/*.md", true, d -> d.equals("/r") ? List.of("a.md", ".b.md", "c.txt") : null))
                .containsExactly("/r/a.md", "/r/.b.md");
        assertThat(Wildcards.expand("/r/*/x", true, d -> null)).isNull();
    }

    @Test
    void variableNamesThatMarkSecrets() {
        for (String name : List.of("GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "OPENAI_API_KEY", "GitHubToken", "npm_token",
                "DATABASE_URL", "MONGODB_URI", "AZURE_STORAGE_CONNECTION_STRING", "SENTRY_DSN", "DB_PASSWORD", "GH_PAT",
                "MYAPIKEY", "SLACK_WEBHOOK_URL")) {
            assertThat(SecretNames.isSecret(name)).as(name).isTrue();
        }
        for (String name : List.of("PATH", "PWD", "HOME", "USERPROFILE", "GIT_AUTHOR_NAME", "PATHEXT", "SSH_AUTH_SOCK",
                "KEYBOARD", "LANG", "COMPUTERNAME", "SESSIONNAME")) {
            assertThat(SecretNames.isSecret(name)).as(name).isFalse();
        }
    }
}
