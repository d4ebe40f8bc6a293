package io.shellgate.judge.internal.powershell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PsTypingTest {

    private static Map<String, Integer> counts(String script) {
        return PsVariables.count(PsParser.parse(script, false).statements());
    }

    @Test
    void everyWayOfSettingAVariableIsCounted() {
        assertThat(counts("$x = 'a'; $x.Trim()")).containsEntry("x", 1);
        assertThat(counts("$x = 'a'; $global:x = Get-Item y")).containsEntry("x", 2);
        assertThat(counts("$x = 'a'; $x += 'b'")).containsEntry("x", 3);
        assertThat(counts("foreach ($f in 1..2) { $f }")).containsEntry("f", 1);
        assertThat(counts("$x = 'a'; gci -OutVariable x")).containsEntry("x", 3);
        assertThat(counts("$x = 'a'; gci -pv x | % { $x }")).containsEntry("x", 3);
        assertThat(counts("$x = 'a'; [int]::TryParse('1', [ref]$x)")).containsEntry("x", 3);
        assertThat(counts("function f($x) { $x.Delete() }")).containsEntry("x", 2);
        assertThat(counts("$x = 'a'; Set-Variable x (Get-Item y)")).containsEntry("x", 3);
        assertThat(counts("$x = 'a'; & { $x = Get-Item y }")).containsEntry("x", 2);
    }

    @Test
    void typesAreReadAsPowerShellResolvesThem() {
        assertThat(PsTypes.canonical("IO.Path")).isEqualTo("system.io.path");
        assertThat(PsTypes.canonical("string")).isEqualTo(PsTypes.STRING);
        assertThat(PsTypes.canonical("System.Collections.Generic.List[string]")).isEqualTo("system.collections.generic.list");
        assertThat(PsTypes.canonical("Microsoft.Win32.Registry")).isEqualTo("microsoft.win32.registry");
        assertThat(PsTypes.canonical("pscustomobject")).isEqualTo(PsTypes.CUSTOM);
    }

    @Test
    void onlyListedMembersOfTheTargetsTypeCompute() {
        assertThat(PsTypes.member(PsTypes.STRING, "Replace", false).method()).isTrue();
        assertThat(PsTypes.member(PsTypes.ITEM, "Replace", false)).isNull();
        assertThat(PsTypes.member("system.io.fileinfo", "Delete", false)).isNull();
        assertThat(PsTypes.member("system.io.fileinfo", "Name", false).method()).isFalse();
        assertThat(PsTypes.member("system.io.fileinfo", "ToString", false).method()).isTrue();
        assertThat(PsTypes.member("system.io.path", "GetTempFileName", true)).isNull();
        assertThat(PsTypes.member("system.io.path", "GetFileName", true).result()).isEqualTo(PsTypes.STRING);
        assertThat(PsTypes.member("system.management.automation.itemcmdletproviderintrinsics", "Remove", false)).isNull();
        assertThat(PsTypes.member(null, "Trim", false)).isNull();
        assertThat(PsTypes.member(null, "ToString", false).method()).isTrue();
        assertThat(PsTypes.member("system.text.encoding", "UTF8", true).result()).isEqualTo("system.text.encoding");
    }

    @Test
    void aConversionRunsTheParserOrConstructorTheMemberTableLists() {
        // [int16]'5' runs Int16.Parse, [regex]'x' the constructor, [pscustomobject] is PowerShell's own conversion
        assertThat(PsTypes.conversion(PsTypes.canonical("int16"))).isEqualTo(PsTypes.member("system.int16", "Parse", true));
        assertThat(PsTypes.conversion(PsTypes.canonical("regex"))).isEqualTo(PsTypes.member("system.text.regularexpressions.regex",
                "new", true));
        assertThat(PsTypes.conversion(PsTypes.canonical("pscustomobject"))).isNotNull();
        assertThat(PsTypes.conversion(PsTypes.canonical("IO.FileInfo")).pathArgument()).isTrue();
        // not inherited: FileInfo's parent lists no constructor; unknown types have none
        assertThat(PsTypes.conversion(PsTypes.ITEM)).isNull();
        assertThat(PsTypes.conversion(PsTypes.canonical("IO.StreamWriter"))).isNull();
        assertThat(PsTypes.conversion(PsTypes.canonical("Net.Sockets.UdpClient"))).isNull();
        assertThat(PsConversions.attribute("Parameter(Mandatory=$true, Position=0)")).isNull();
        assertThat(PsConversions.attribute("ValidateScript({ Remove-Item x })")).isNotNull();
        assertThat(PsConversions.attribute("ArgumentCompleter('x')")).isNotNull();
    }

    @Test
    void jsonObjectsHaveTheirPropertiesForBinding() {
        PsCmdlets.Cmdlet gc = PsCmdlets.get("Get-Content");
        // Path binds -Path; n binds no parameter (checked as a path too: which object it came from is not known)
        assertThat(PsFlow.json("{\"Path\":\"~/.ssh/id_rsa\",\"n\":1}").paths(gc, PsFlow.PATH_PARAMETERS))
                .containsExactly("~/.ssh/id_rsa", "1");
        assertThat(PsFlow.json("[{\"PSPath\":\"a\"},{\"FullName\":\"b\"}]").paths(gc, PsFlow.PATH_PARAMETERS))
                .containsExactly("a", "b");
        // ReadCount binds -ReadCount by property name, which is not a path
        assertThat(PsFlow.json("{\"LP\":\"a\",\"ReadCount\":\"b\"}").paths(gc, PsFlow.PATH_PARAMETERS)).containsExactly("a");
        assertThat(PsFlow.json("{'Path':'x'}")).isNull();
        assertThat(PsFlow.json("{\"a\":{\"Path\":\"x\"}}").paths(gc, PsFlow.PATH_PARAMETERS)).containsExactly((String) null);
    }
}
